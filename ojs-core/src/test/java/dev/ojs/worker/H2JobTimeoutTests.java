package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJobTimeoutTests} on H2.
 */
class H2JobTimeoutTests extends AbstractJobTimeoutTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractPauseAndCancelTests} on H2.
 */
class H2PauseAndCancelTests extends AbstractPauseAndCancelTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractSequenceTests} on H2.
 */
class H2SequenceTests extends AbstractSequenceTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractSequenceTests} on MariaDB.
 */
class MariaDbSequenceTests extends AbstractSequenceTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

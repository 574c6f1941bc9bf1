package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractPauseAndCancelTests} on MariaDB.
 */
class MariaDbPauseAndCancelTests extends AbstractPauseAndCancelTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

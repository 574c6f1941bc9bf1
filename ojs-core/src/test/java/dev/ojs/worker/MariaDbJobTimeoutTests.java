package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJobTimeoutTests} on MariaDB.
 */
class MariaDbJobTimeoutTests extends AbstractJobTimeoutTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

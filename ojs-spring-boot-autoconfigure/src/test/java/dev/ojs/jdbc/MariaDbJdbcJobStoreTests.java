package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcJobStoreTests} on MariaDB.
 */
class MariaDbJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

class MariaDbJdbcAdminStoreTests extends AbstractJdbcAdminStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

class PostgresJdbcAdminStoreTests extends AbstractJdbcAdminStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

class H2JdbcAdminStoreTests extends AbstractJdbcAdminStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

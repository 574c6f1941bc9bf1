package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcJobStoreTests} on PostgreSQL.
 */
class PostgresJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcWorkflowStoreTests} on PostgreSQL.
 */
class PostgresJdbcWorkflowStoreTests extends AbstractJdbcWorkflowStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

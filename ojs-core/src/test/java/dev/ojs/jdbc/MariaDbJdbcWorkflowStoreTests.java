package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcWorkflowStoreTests} on MariaDB.
 */
class MariaDbJdbcWorkflowStoreTests extends AbstractJdbcWorkflowStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

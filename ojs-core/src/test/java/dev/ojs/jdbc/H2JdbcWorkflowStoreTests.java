package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcWorkflowStoreTests} on H2.
 */
class H2JdbcWorkflowStoreTests extends AbstractJdbcWorkflowStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

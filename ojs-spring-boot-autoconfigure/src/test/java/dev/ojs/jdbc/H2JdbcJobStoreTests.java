package dev.ojs.jdbc;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJdbcJobStoreTests} on H2.
 */
class H2JdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

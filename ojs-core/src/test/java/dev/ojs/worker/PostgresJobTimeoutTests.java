package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractJobTimeoutTests} on PostgreSQL.
 */
class PostgresJobTimeoutTests extends AbstractJobTimeoutTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

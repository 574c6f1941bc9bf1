package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractRateLimitTests} on PostgreSQL.
 */
class PostgresRateLimitTests extends AbstractRateLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

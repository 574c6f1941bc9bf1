package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractTypeConcurrencyLimitTests} on PostgreSQL.
 */
class PostgresTypeConcurrencyLimitTests extends AbstractTypeConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

package dev.ojs.spring.actuate;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractDeadLettersEndpointTests} on PostgreSQL.
 */
class PostgresDeadLettersEndpointTests extends AbstractDeadLettersEndpointTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

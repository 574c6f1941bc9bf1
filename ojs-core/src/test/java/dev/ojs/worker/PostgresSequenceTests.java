package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractSequenceTests} on PostgreSQL.
 */
class PostgresSequenceTests extends AbstractSequenceTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

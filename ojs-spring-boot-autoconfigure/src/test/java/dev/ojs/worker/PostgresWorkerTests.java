package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractWorkerTests} on PostgreSQL.
 */
class PostgresWorkerTests extends AbstractWorkerTests {

	@Override
	TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

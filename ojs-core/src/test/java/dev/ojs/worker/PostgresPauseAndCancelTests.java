package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractPauseAndCancelTests} on PostgreSQL.
 */
class PostgresPauseAndCancelTests extends AbstractPauseAndCancelTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class PostgresMultiNodeCronTests extends AbstractMultiNodeCronTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

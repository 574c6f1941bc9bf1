package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class PostgresMultiNodeRecurringJobTests extends AbstractMultiNodeRecurringJobTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class PostgresRecurringJobEvaluatorTests extends AbstractRecurringJobEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

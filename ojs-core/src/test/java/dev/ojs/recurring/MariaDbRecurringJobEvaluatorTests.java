package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbRecurringJobEvaluatorTests extends AbstractRecurringJobEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

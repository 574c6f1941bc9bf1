package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class H2RecurringJobEvaluatorTests extends AbstractRecurringJobEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

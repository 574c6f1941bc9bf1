package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class PostgresFourContextRecurringJobTests extends AbstractFourContextRecurringJobTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

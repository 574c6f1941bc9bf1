package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbFourContextRecurringJobTests extends AbstractFourContextRecurringJobTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

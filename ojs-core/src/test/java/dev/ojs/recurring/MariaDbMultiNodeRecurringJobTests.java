package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbMultiNodeRecurringJobTests extends AbstractMultiNodeRecurringJobTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

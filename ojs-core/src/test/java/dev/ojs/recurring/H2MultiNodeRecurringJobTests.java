package dev.ojs.recurring;

import dev.ojs.testsupport.TestDatabases;

class H2MultiNodeRecurringJobTests extends AbstractMultiNodeRecurringJobTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

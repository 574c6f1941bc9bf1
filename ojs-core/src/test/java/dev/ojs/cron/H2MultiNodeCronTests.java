package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class H2MultiNodeCronTests extends AbstractMultiNodeCronTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

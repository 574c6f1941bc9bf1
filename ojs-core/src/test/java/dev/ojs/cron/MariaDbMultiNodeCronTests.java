package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class MariaDbMultiNodeCronTests extends AbstractMultiNodeCronTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

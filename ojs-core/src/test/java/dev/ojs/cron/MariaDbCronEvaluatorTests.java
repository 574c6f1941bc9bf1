package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class MariaDbCronEvaluatorTests extends AbstractCronEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class H2CronEvaluatorTests extends AbstractCronEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

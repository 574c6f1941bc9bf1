package dev.ojs.cron;

import dev.ojs.testsupport.TestDatabases;

class PostgresCronEvaluatorTests extends AbstractCronEvaluatorTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

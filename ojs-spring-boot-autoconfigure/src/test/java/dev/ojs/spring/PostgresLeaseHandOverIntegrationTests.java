package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class PostgresLeaseHandOverIntegrationTests extends AbstractLeaseHandOverIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

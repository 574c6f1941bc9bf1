package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class PostgresPolicyFollowsHandlerIntegrationTests extends PolicyFollowsHandlerIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

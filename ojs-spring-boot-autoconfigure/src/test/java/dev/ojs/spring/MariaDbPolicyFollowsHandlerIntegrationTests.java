package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbPolicyFollowsHandlerIntegrationTests extends PolicyFollowsHandlerIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class H2PolicyFollowsHandlerIntegrationTests extends PolicyFollowsHandlerIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class H2LeaseHandOverIntegrationTests extends AbstractLeaseHandOverIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

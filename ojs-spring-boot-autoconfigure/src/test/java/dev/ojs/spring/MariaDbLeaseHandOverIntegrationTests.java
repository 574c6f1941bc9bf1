package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbLeaseHandOverIntegrationTests extends AbstractLeaseHandOverIntegrationTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

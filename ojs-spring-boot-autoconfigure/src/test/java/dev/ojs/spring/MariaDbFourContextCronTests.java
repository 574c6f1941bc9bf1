package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class MariaDbFourContextCronTests extends AbstractFourContextCronTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

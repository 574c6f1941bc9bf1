package dev.ojs.spring;

import dev.ojs.testsupport.TestDatabases;

class PostgresFourContextCronTests extends AbstractFourContextCronTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

}

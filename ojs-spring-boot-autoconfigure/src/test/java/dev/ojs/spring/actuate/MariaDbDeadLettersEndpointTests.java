package dev.ojs.spring.actuate;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractDeadLettersEndpointTests} on MariaDB.
 */
class MariaDbDeadLettersEndpointTests extends AbstractDeadLettersEndpointTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.spring.autoconfigure;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractFirstStartTests} on a new MariaDB database, with Hikari's default pool of 10
 * connections.
 */
class MariaDbFirstStartTests extends AbstractFirstStartTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

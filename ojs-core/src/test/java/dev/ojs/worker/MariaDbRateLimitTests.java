package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractRateLimitTests} on MariaDB.
 */
class MariaDbRateLimitTests extends AbstractRateLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

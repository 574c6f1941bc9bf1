package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractConcurrencyLimitTests} on MariaDB.
 */
class MariaDbConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractTypeConcurrencyLimitTests} on MariaDB.
 */
class MariaDbTypeConcurrencyLimitTests extends AbstractTypeConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.MARIADB;
	}

}

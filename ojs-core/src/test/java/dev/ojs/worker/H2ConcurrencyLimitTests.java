package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractConcurrencyLimitTests} on H2.
 */
class H2ConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

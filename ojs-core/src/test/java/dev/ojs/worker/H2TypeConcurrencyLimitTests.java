package dev.ojs.worker;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractTypeConcurrencyLimitTests} on H2.
 */
class H2TypeConcurrencyLimitTests extends AbstractTypeConcurrencyLimitTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

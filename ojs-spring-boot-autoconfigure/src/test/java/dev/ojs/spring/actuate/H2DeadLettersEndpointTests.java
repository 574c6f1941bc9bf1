package dev.ojs.spring.actuate;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractDeadLettersEndpointTests} on H2.
 */
class H2DeadLettersEndpointTests extends AbstractDeadLettersEndpointTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

}

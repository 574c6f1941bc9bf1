package dev.ojs.spring.autoconfigure.actuate;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AbstractActuatorHttpTests} on the application's embedded H2 database.
 */
class H2ActuatorHttpTests extends AbstractActuatorHttpTests {

	private static final String TABLE_PREFIX = ActuatorTestContexts.randomTablePrefix();

	@DynamicPropertySource
	static void tablePrefix(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

}

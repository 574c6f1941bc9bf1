package dev.ojs.web.dashboard;

import java.util.concurrent.ThreadLocalRandom;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AbstractDashboardBrowserTests} on the application's embedded H2 database.
 */
class H2DashboardBrowserTests extends AbstractDashboardBrowserTests {

	private static final String TABLE_PREFIX = "dash_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	@DynamicPropertySource
	static void tablePrefix(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@Override
	String database() {
		return "h2";
	}

	@Override
	String tablePrefix() {
		return TABLE_PREFIX;
	}

}

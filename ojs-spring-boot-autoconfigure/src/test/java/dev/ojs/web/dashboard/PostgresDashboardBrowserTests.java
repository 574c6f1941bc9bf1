package dev.ojs.web.dashboard;

import java.util.concurrent.ThreadLocalRandom;

import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.spring.autoconfigure.OjsRecurringJobsLifecycle;
import dev.ojs.testsupport.TestDatabases;
import dev.ojs.testsupport.TestDatabases.Database;
import dev.ojs.worker.Worker;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * {@link AbstractDashboardBrowserTests} on PostgreSQL (skipped when none is reachable, failed
 * with {@code CI=true}), in a job table of its own that is dropped afterwards.
 */
@DirtiesContext
class PostgresDashboardBrowserTests extends AbstractDashboardBrowserTests {

	private static final String TABLE_PREFIX = "dash_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	/** Stops the worker and the recurring jobs, then drops the tables, before the context is closed. */
	@RegisterExtension
	static final AfterAllCallback dropTables = (context) -> {
		Database database = TestDatabases.database(TestDatabases.Kind.POSTGRESQL);
		ApplicationContext application = SpringExtension.getApplicationContext(context);
		application.getBeanProvider(OjsRecurringJobsLifecycle.class).ifAvailable(OjsRecurringJobsLifecycle::stop);
		application.getBean(Worker.class).stop();
		JdbcSchema.drop(database.dataSource(), new JdbcStoreSettings(TABLE_PREFIX));
	};

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		Database postgres = TestDatabases.database(TestDatabases.Kind.POSTGRESQL);
		registry.add("spring.datasource.url", postgres::jdbcUrl);
		if (postgres.username() != null) {
			registry.add("spring.datasource.username", postgres::username);
			registry.add("spring.datasource.password", postgres::password);
		}
		registry.add("ojs.jdbc.initialize-schema", () -> "always");
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@Override
	String database() {
		return "postgresql";
	}

	@Override
	String tablePrefix() {
		return TABLE_PREFIX;
	}

}

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
 * {@link AbstractDashboardBrowserTests} on MariaDB (skipped when none is reachable, failed
 * with {@code CI=true}), in a job table of its own that is dropped afterwards.
 */
@DirtiesContext
class MariaDbDashboardBrowserTests extends AbstractDashboardBrowserTests {

	private static final String TABLE_PREFIX = "dash_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	/** Stops the worker and the recurring jobs, then drops the tables, before the context is closed. */
	@RegisterExtension
	static final AfterAllCallback dropTables = (context) -> {
		Database database = TestDatabases.database(TestDatabases.Kind.MARIADB);
		ApplicationContext application = SpringExtension.getApplicationContext(context);
		application.getBeanProvider(OjsRecurringJobsLifecycle.class).ifAvailable(OjsRecurringJobsLifecycle::stop);
		application.getBean(Worker.class).stop();
		JdbcSchema.drop(database.dataSource(), new JdbcStoreSettings(TABLE_PREFIX));
	};

	@DynamicPropertySource
	static void mariadb(DynamicPropertyRegistry registry) {
		Database mariadb = TestDatabases.database(TestDatabases.Kind.MARIADB);
		registry.add("spring.datasource.url", mariadb::jdbcUrl);
		if (mariadb.username() != null) {
			registry.add("spring.datasource.username", mariadb::username);
			registry.add("spring.datasource.password", mariadb::password);
		}
		registry.add("ojs.jdbc.initialize-schema", () -> "always");
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@Override
	String database() {
		return "mariadb";
	}

	@Override
	String tablePrefix() {
		return TABLE_PREFIX;
	}

}

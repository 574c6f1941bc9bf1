package dev.ojs.spring.autoconfigure.actuate;

import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.testsupport.TestDatabases;
import dev.ojs.testsupport.TestDatabases.Database;
import dev.ojs.worker.Worker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * {@link AbstractActuatorHttpTests} on PostgreSQL (skipped when none is reachable, failed
 * with {@code CI=true}), in a job table of its own that is dropped afterwards.
 */
@DirtiesContext
class PostgresActuatorHttpTests extends AbstractActuatorHttpTests {

	private static final String TABLE_PREFIX = ActuatorTestContexts.randomTablePrefix();

	private static Database database;

	@BeforeAll
	static void findDatabase() {
		database = TestDatabases.database(TestDatabases.Kind.POSTGRESQL);
	}

	/** Stops the worker, then drops the table, before the context is closed. */
	@RegisterExtension
	static final AfterAllCallback dropTable = (context) -> {
		if (database != null) {
			SpringExtension.getApplicationContext(context).getBean(Worker.class).stop();
			JdbcSchema.drop(database.dataSource(), new JdbcStoreSettings(TABLE_PREFIX));
		}
	};

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		// runs when the context loads, after findDatabase() made sure there is one
		Database postgres = TestDatabases.database(TestDatabases.Kind.POSTGRESQL);
		registry.add("spring.datasource.url", postgres::jdbcUrl);
		if (postgres.username() != null) {
			registry.add("spring.datasource.username", postgres::username);
			registry.add("spring.datasource.password", postgres::password);
		}
		registry.add("ojs.jdbc.initialize-schema", () -> "always");
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

}

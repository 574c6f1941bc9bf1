package dev.ojs.spring;

import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.annotation.EnableTransactionManagement;

import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.testsupport.TestDatabases;

/**
 * The application of the full-run tests: auto-configuration on one of the
 * {@link TestDatabases}, every handler of {@link IntegrationJobs}, and a random table prefix
 * per context whose table the schema initializer creates ({@code initialize-schema=always})
 * and that is dropped when the context closes (after the worker stopped).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableTransactionManagement(proxyTargetClass = true)
@Import({ IntegrationJobs.class, IntegrationJobs.TransactionalJobs.class, IntegrationJobs.Spi.class })
public class IntegrationTestApplication {

	/** Points the context at a database with a fresh table prefix, tiny intervals. */
	public static void configure(DynamicPropertyRegistry registry, TestDatabases.Kind kind) {
		String prefix = "s" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
		registry.add("test.database", kind::name);
		registry.add("ojs.jdbc.table-prefix", () -> prefix);
		registry.add("ojs.jdbc.initialize-schema", () -> "always");
		registry.add("ojs.worker.poll-interval", () -> "50ms");
		registry.add("ojs.worker.shutdown-grace-period", () -> "2s");
		registry.add("ojs.retry.initial-interval", () -> "PT0.01S");
		registry.add("ojs.retry.max-interval", () -> "PT0.05S");
		registry.add("ojs.retry.jitter", () -> "false");
	}

	/** The shared pool of the test database; never closed by a context. */
	@Bean(destroyMethod = "")
	DataSource dataSource(Environment environment) {
		return TestDatabases.database(TestDatabases.Kind.valueOf(environment.getRequiredProperty("test.database")))
			.dataSource();
	}

	@Bean
	TableDropper tableDropper(DataSource dataSource, Environment environment) {
		return new TableDropper(dataSource, environment.getRequiredProperty("ojs.jdbc.table-prefix"));
	}

	/** Drops this context's job table when the context closes. */
	record TableDropper(DataSource dataSource, String tablePrefix) implements DisposableBean {

		@Override
		public void destroy() {
			JdbcSchema.drop(this.dataSource, new JdbcStoreSettings(this.tablePrefix));
		}

	}

}

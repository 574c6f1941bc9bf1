package dev.ojs.spring;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import dev.ojs.testsupport.TestDatabases;

/**
 * The database of an application configured by {@link IntegrationTestApplication#configure}:
 * the shared pool of {@code test.database}, and the drop of the context's tables when it
 * closes.
 */
@Configuration(proxyBeanMethods = false)
@Import(TestDatabaseConfiguration.SharedDataSource.class)
public class TestDatabaseConfiguration {

	/**
	 * Only the shared pool of the test database ({@code test.database}), never closed by a
	 * context: for several contexts on one table, none of which may drop it.
	 */
	@Configuration(proxyBeanMethods = false)
	public static class SharedDataSource {

		@Bean(destroyMethod = "")
		DataSource dataSource(Environment environment) {
			return TestDatabases.database(TestDatabases.Kind.valueOf(environment.getRequiredProperty("test.database")))
				.dataSource();
		}

	}

	@Bean
	IntegrationTestApplication.TableDropper tableDropper(DataSource dataSource, Environment environment) {
		return new IntegrationTestApplication.TableDropper(dataSource,
				environment.getRequiredProperty("ojs.jdbc.table-prefix"));
	}

}

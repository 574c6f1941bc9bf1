package dev.ojs.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ConnectionPoolCheck}: the pool size warning at worker start.
 */
class ConnectionPoolCheckTests extends DatabaseTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

	@Test
	void warnsOnlyWhenThePoolCannotServeTheWorkersOwnThreads() {
		assertThat(ConnectionPoolCheck.check(10, 5, 5)).isNull();
		ConnectionPoolCheck.Finding info = ConnectionPoolCheck.check(10, 5, 10);
		assertThat(info.warning()).isFalse();
		assertThat(info.message()).contains("10 handler slots and 5 worker connections share a pool of 10")
			.contains("raise spring.datasource.hikari.maximum-pool-size to 15 if handlers use the database");
		ConnectionPoolCheck.Finding warning = ConnectionPoolCheck.check(5, 5, 10);
		assertThat(warning.warning()).isTrue();
		assertThat(warning.message()).contains("may hold 5 database connections")
			.contains("allows 5")
			.contains("raise spring.datasource.hikari.maximum-pool-size to at least 15");
	}

	@Test
	void findsTheMaximumOfAHikariPoolOrOfOneItWraps() {
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setMaximumPoolSize(7);
			assertThat(ConnectionPoolCheck.maximumPoolSize(pool)).hasValue(7);
			assertThat(ConnectionPoolCheck.maximumPoolSize(new DelegatingDataSource(pool))).hasValue(7);
		}
		assertThat(ConnectionPoolCheck.maximumPoolSize(new DriverManagerDataSource("jdbc:h2:mem:none"))).isEmpty();
	}

}

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
		assertThat(info.message()).contains("the pool allows 10, the worker's own threads may hold 5 and its 10 handler slots")
			.contains("raise spring.datasource.hikari.maximum-pool-size to 15 if handlers use the database");
		ConnectionPoolCheck.Finding warning = ConnectionPoolCheck.check(4, 5, 10);
		assertThat(warning.warning()).isTrue();
		assertThat(warning.message()).contains("The connection pool allows 4 connections, fewer than the 5")
			.contains("raise spring.datasource.hikari.maximum-pool-size to at least 5 (15 if handlers use the database)");
	}

	/** Hikari's default pool (10) serves a node of one queue on PostgreSQL (9 threads and the listener). */
	@Test
	void aPoolAsLargeAsTheWorkersOwnThreadsIsNoWarning() {
		ConnectionPoolCheck.Finding defaults = ConnectionPoolCheck.check(10, 10, 32);
		assertThat(defaults.warning()).isFalse();
		assertThat(ConnectionPoolCheck.check(9, 10, 32).warning()).isTrue();
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

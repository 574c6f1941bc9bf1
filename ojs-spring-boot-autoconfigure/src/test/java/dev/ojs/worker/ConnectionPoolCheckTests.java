package dev.ojs.worker;

import java.util.List;
import java.util.Map;

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
	void warnsWhenAHikariPoolIsSmallerThanWhatTheWorkerMayUse() {
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setMaximumPoolSize(10);
			assertThat(ConnectionPoolCheck.warning(pool, 10)).isNull();
			assertThat(ConnectionPoolCheck.warning(pool, 14)).contains("up to 14 database connections")
				.contains("allows 10")
				.contains("raise spring.datasource.hikari.maximum-pool-size to at least 14");
			assertThat(ConnectionPoolCheck.warning(new DelegatingDataSource(pool), 14)).isNotNull();
		}
		assertThat(ConnectionPoolCheck.warning(new DriverManagerDataSource("jdbc:h2:mem:none"), 1000)).isNull();
	}

	@Test
	void countsHandlerSlotsPollersAndEngineThreads() {
		JdbcJobStore store = this.schema.newStore();
		JobHandler handler = (execution) -> {
		};
		List<HandlerRegistration> registrations = List.of(new HandlerRegistration("a", "default", 0, null, handler, null),
				new HandlerRegistration("b", "default", 0, null, handler, null),
				new HandlerRegistration("c", "mail", 0, null, handler, null));
		// served queues: 8 + 1 poller, 3 + 1 poller; completer, heartbeat, maintenance
		assertThat(ConnectionPoolCheck.connectionsNeeded(store, Map.of("default", 8, "mail", 3), registrations))
			.isEqualTo(16);
		assertThat(ConnectionPoolCheck.connectionsNeeded(store, Map.of("default", 8), List.of())).isEqualTo(3);
	}

}

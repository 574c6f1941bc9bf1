package dev.ojs.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractJdbcJobStoreTests} on PostgreSQL, plus the insert listener's connection
 * validation.
 */
class PostgresJdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	@Test
	void listenerReconnectsWhenItsConnectionIsNoLongerValid() throws Exception {
		AtomicBoolean dropped = new AtomicBoolean();
		// a connection the network dropped silently: no error, but isValid() says false
		DelegatingDataSource dataSource = new DelegatingDataSource(this.schema.dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				Connection target = super.getConnection();
				return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
						new Class<?>[] { Connection.class }, (proxy, method, args) -> {
							if (method.getName().equals("isValid") && dropped.get()) {
								return false;
							}
							try {
								return method.invoke(target, args);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}

		};
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		try (PostgresInsertListener listener = PostgresInsertListener.start(dataSource, this.schema.tableName(),
				(queue) -> events.add(String.valueOf(queue)), 200)) {
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("connected").isEqualTo("null");
			assertThat(events.poll(1, TimeUnit.SECONDS)).as("valid: stays connected").isNull();
			dropped.set(true);
			assertThat(events.poll(10, TimeUnit.SECONDS)).as("reconnected").isEqualTo("null");
		}
	}

}

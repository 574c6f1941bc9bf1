package dev.ojs.worker;

import java.util.Collection;
import java.util.Map;
import java.util.OptionalInt;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.jdbc.JdbcJobStore;

/**
 * Warns at start when the data source is a HikariCP pool too small for what the worker may
 * hold at once: a connection per handler thread (handlers may use the database), one per
 * poller, the completer, the heartbeat and maintenance threads, and on PostgreSQL the
 * {@code LISTEN} connection. A pool that runs dry makes the engine's own writes wait (and
 * time out), so heartbeats and outcomes come late. Hikari is found reflectively: it is not a
 * dependency.
 */
final class ConnectionPoolCheck {

	static final String HIKARI_DATA_SOURCE = "com.zaxxer.hikari.HikariDataSource";

	static final String PROPERTY = "spring.datasource.hikari.maximum-pool-size";

	private static final Log logger = LogFactory.getLog(ConnectionPoolCheck.class);

	private ConnectionPoolCheck() {
	}

	static void warnIfTooSmall(JdbcJobStore store, Map<String, Integer> queues,
			Collection<HandlerRegistration> registrations) {
		String warning = warning(store.dataSource(), connectionsNeeded(store, queues, registrations));
		if (warning != null) {
			logger.warn(warning);
		}
	}

	/**
	 * With handlers, every served queue has its handler threads and a poller; then the
	 * completer, heartbeat and maintenance threads, and on PostgreSQL the listener.
	 */
	static int connectionsNeeded(JdbcJobStore store, Map<String, Integer> queues,
			Collection<HandlerRegistration> registrations) {
		if (registrations.isEmpty()) {
			return 3;
		}
		int needed = 3 + (store.supportsInsertNotifications() ? 1 : 0);
		for (int concurrency : queues.values()) {
			needed += concurrency + 1;
		}
		return needed;
	}

	/** The warning for a pool smaller than {@code needed}, or {@code null}. */
	static String warning(DataSource dataSource, int needed) {
		OptionalInt maximum = maximumPoolSize(dataSource);
		if (maximum.isEmpty() || maximum.getAsInt() >= needed) {
			return null;
		}
		return "OJS worker may use up to " + needed + " database connections at once (a handler thread per slot,"
				+ " a poller per queue, completer, heartbeat, maintenance and listener), but the connection pool allows "
				+ maximum.getAsInt() + ": raise " + PROPERTY + " to at least " + needed
				+ " (or lower ojs.worker.concurrency), or heartbeats and outcomes may wait for connections";
	}

	/** The maximum size of a HikariCP pool, when {@code dataSource} is or wraps one. */
	static OptionalInt maximumPoolSize(DataSource dataSource) {
		try {
			ClassLoader classLoader = dataSource.getClass().getClassLoader();
			Class<?> hikari = Class.forName(HIKARI_DATA_SOURCE, false,
					(classLoader != null) ? classLoader : ConnectionPoolCheck.class.getClassLoader());
			Object pool = hikari.isInstance(dataSource) ? dataSource
					: (dataSource.isWrapperFor(hikari) ? dataSource.unwrap(hikari) : null);
			if (pool == null) {
				return OptionalInt.empty();
			}
			return OptionalInt.of((Integer) hikari.getMethod("getMaximumPoolSize").invoke(pool));
		}
		catch (Exception | LinkageError ex) {
			return OptionalInt.empty();
		}
	}

}

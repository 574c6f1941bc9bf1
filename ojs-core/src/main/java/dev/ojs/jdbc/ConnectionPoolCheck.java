package dev.ojs.jdbc;

import java.util.OptionalInt;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Checks at worker start that a HikariCP pool is large enough. The worker's own threads may
 * each hold a connection while they work (a poller per served queue, the completer,
 * heartbeats, rescuer, pruner, expirer, the pause and cancel watchers, and on PostgreSQL the
 * {@code LISTEN} connection). A pool smaller than that makes the engine's own writes wait,
 * so heartbeats and outcomes come late: that is a warning. A pool of exactly that size is
 * enough, as these threads rarely hold their connections at the same moment: Hikari's
 * default of 10 serves a node of one queue on PostgreSQL without a warning. Handler threads
 * hold connections only when handlers use the database, so a pool that cannot also serve
 * every handler slot is only worth an info line. Hikari is found reflectively: it is not a
 * dependency.
 */
final class ConnectionPoolCheck {

	static final String HIKARI_DATA_SOURCE = "com.zaxxer.hikari.HikariDataSource";

	static final String PROPERTY = "spring.datasource.hikari.maximum-pool-size";

	private static final Log logger = LogFactory.getLog(ConnectionPoolCheck.class);

	private ConnectionPoolCheck() {
	}

	/** Logs when the pool behind {@code dataSource} is too small for the worker's connections. */
	static void check(DataSource dataSource, int workerConnections, int handlerSlots) {
		OptionalInt maximum = maximumPoolSize(dataSource);
		if (maximum.isEmpty()) {
			return;
		}
		Finding finding = check(maximum.getAsInt(), workerConnections, handlerSlots);
		if (finding == null) {
			return;
		}
		if (finding.warning()) {
			logger.warn(finding.message());
		}
		else {
			logger.info(finding.message());
		}
	}

	/** What to log for a pool of {@code maximum} connections, or {@code null} when it is enough. */
	static @Nullable Finding check(int maximum, int workerConnections, int handlerSlots) {
		int all = workerConnections + handlerSlots;
		if (maximum < workerConnections) {
			return new Finding(true, "The connection pool allows " + maximum + " connections, fewer than the "
					+ workerConnections + " the OJS worker's own threads (a poller per queue, completer, heartbeats,"
					+ " rescuer, pruner, expirer, pause and cancel watchers, listener) may hold at once, so heartbeats"
					+ " and outcomes will wait for connections: raise " + PROPERTY + " to at least " + workerConnections
					+ " (" + all + " if handlers use the database)");
		}
		if (maximum < all) {
			return new Finding(false, "OJS handlers that use the database may wait for connections: the pool allows "
					+ maximum + ", the worker's own threads may hold " + workerConnections + " and its " + handlerSlots
					+ " handler slots one each (raise " + PROPERTY + " to " + all + " if handlers use the database)");
		}
		return null;
	}

	record Finding(boolean warning, String message) {
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

package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL {@code LISTEN} on a dedicated connection taken from the data source for as long
 * as the listener runs. A (non-daemon) thread waits in
 * {@link PGConnection#getNotifications(int)} and hands each notification's payload (the
 * queue) to the callback; after every (re)connect the callback gets {@code null}
 * (notifications may have been missed); on the way out it runs {@code UNLISTEN *}, so the
 * pooled connection stops collecting notifications. Every {@value #VALIDATE_MILLIS} ms
 * without a notification it validates the connection ({@link Connection#isValid(int)}, so a
 * connection silently dropped by the network is noticed). Failures (e.g. a database restart)
 * close the connection and reconnect with backoff, 100 ms doubling to 5 s. A callback that
 * throws is logged and the listener goes on.
 */
final class PostgresNotifications implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(PostgresNotifications.class);

	private static final int WAIT_MILLIS = 500;

	private static final long MAX_BACKOFF_MILLIS = 5000;

	static final long VALIDATE_MILLIS = 30_000;

	private static final int VALIDATE_TIMEOUT_SECONDS = 5;

	private final long validateMillis;

	private final DataSource dataSource;

	private final String channel;

	private final Consumer<@Nullable String> onInsert;

	private final Thread thread;

	private volatile boolean running = true;

	private PostgresNotifications(DataSource dataSource, String channel, Consumer<@Nullable String> onInsert,
			long validateMillis) {
		this.dataSource = dataSource;
		this.channel = channel;
		this.onInsert = onInsert;
		this.validateMillis = validateMillis;
		this.thread = new Thread(this::run, "ojs-listen-" + channel);
	}

	static PostgresNotifications start(DataSource dataSource, String channel, Consumer<@Nullable String> onInsert) {
		return start(dataSource, channel, onInsert, VALIDATE_MILLIS);
	}

	static PostgresNotifications start(DataSource dataSource, String channel, Consumer<@Nullable String> onInsert,
			long validateMillis) {
		PostgresNotifications listener = new PostgresNotifications(dataSource, channel, onInsert, validateMillis);
		listener.thread.start();
		return listener;
	}

	private void run() {
		long backoff = 100;
		while (this.running) {
			try (Connection con = this.dataSource.getConnection()) {
				PGConnection pg = con.unwrap(PGConnection.class);
				try (Statement statement = con.createStatement()) {
					statement.execute(PostgresInsertSql.listen(this.channel));
				}
				if (!con.getAutoCommit()) {
					con.commit();
				}
				backoff = 100;
				// drop what a pooled connection may have buffered before; wake everyone instead
				pg.getNotifications();
				deliver(null);
				long validated = System.nanoTime();
				boolean valid = true;
				try {
					while (this.running) {
						PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
						if (notifications != null && notifications.length > 0) {
							validated = System.nanoTime();
							for (PGNotification notification : notifications) {
								deliver(notification.getParameter());
							}
						}
						else if (System.nanoTime() - validated >= this.validateMillis * 1_000_000) {
							valid = con.isValid(VALIDATE_TIMEOUT_SECONDS);
							if (!valid) {
								throw new SQLException("the LISTEN connection is no longer valid");
							}
							validated = System.nanoTime();
						}
					}
				}
				finally {
					// an invalid connection may not even answer: the pool validates it before reuse
					if (valid) {
						unlisten(con);
					}
				}
			}
			catch (Throwable ex) {
				if (ex instanceof VirtualMachineError error) {
					throw error;
				}
				if (!this.running) {
					break;
				}
				logger.warn("OJS insert listener on channel " + this.channel + " failed, reconnecting in " + backoff
						+ " ms: " + ex);
				sleep(backoff);
				backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
			}
		}
	}

	private void deliver(@Nullable String queue) {
		try {
			this.onInsert.accept(queue);
		}
		catch (Throwable ex) {
			if (ex instanceof VirtualMachineError error) {
				throw error;
			}
			logger.warn("OJS insert listener callback failed", ex);
		}
	}

	/** The connection goes back to the pool: it must not keep collecting notifications. */
	private static void unlisten(Connection con) {
		try (Statement statement = con.createStatement()) {
			statement.execute(PostgresInsertSql.UNLISTEN_ALL);
			if (!con.getAutoCommit()) {
				con.commit();
			}
		}
		catch (SQLException ex) {
			logger.debug("UNLISTEN failed", ex);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		this.running = false;
		this.thread.interrupt();
		try {
			this.thread.join(WAIT_MILLIS * 4L);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}

package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL {@code LISTEN} on a dedicated connection taken from the data source for as long
 * as the listener runs. A daemon thread waits in {@link PGConnection#getNotifications(int)}
 * and hands each notification's payload (the queue) to the callback; after every
 * (re)connect the callback gets {@code null} (notifications may have been missed); on the way
 * out it runs {@code UNLISTEN *}, so the pooled connection stops collecting notifications. Failures
 * (e.g. a database restart) close the connection and reconnect with backoff, 100 ms doubling
 * to 5 s.
 */
final class PostgresInsertListener implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(PostgresInsertListener.class);

	private static final int WAIT_MILLIS = 500;

	private static final long MAX_BACKOFF_MILLIS = 5000;

	private final DataSource dataSource;

	private final String channel;

	private final Consumer<String> onInsert;

	private final Thread thread;

	private volatile boolean running = true;

	private PostgresInsertListener(DataSource dataSource, String channel, Consumer<String> onInsert) {
		this.dataSource = dataSource;
		this.channel = channel;
		this.onInsert = onInsert;
		this.thread = new Thread(this::run, "ojs-listen-" + channel);
		this.thread.setDaemon(true);
	}

	static PostgresInsertListener start(DataSource dataSource, String channel, Consumer<String> onInsert) {
		PostgresInsertListener listener = new PostgresInsertListener(dataSource, channel, onInsert);
		listener.thread.start();
		return listener;
	}

	private void run() {
		long backoff = 100;
		while (this.running) {
			try (Connection con = this.dataSource.getConnection()) {
				PGConnection pg = con.unwrap(PGConnection.class);
				try (Statement statement = con.createStatement()) {
					statement.execute("LISTEN \"" + this.channel + "\"");
				}
				if (!con.getAutoCommit()) {
					con.commit();
				}
				backoff = 100;
				// drop what a pooled connection may have buffered before; wake everyone instead
				pg.getNotifications();
				this.onInsert.accept(null);
				try {
					while (this.running) {
						PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
						if (notifications != null) {
							for (PGNotification notification : notifications) {
								this.onInsert.accept(notification.getParameter());
							}
						}
					}
				}
				finally {
					unlisten(con);
				}
			}
			catch (SQLException | RuntimeException ex) {
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

	/** The connection goes back to the pool: it must not keep collecting notifications. */
	private static void unlisten(Connection con) {
		try (Statement statement = con.createStatement()) {
			statement.execute("UNLISTEN *");
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

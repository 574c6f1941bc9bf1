package dev.ojs.jdbc;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The callbacks of {@link JdbcJobStore#listenForInserts}: told of the store's own inserts as
 * they commit, without a round trip through the database; on PostgreSQL also of those of
 * every other process ({@link PostgresNotifications}).
 */
final class InsertCallbacks {

	// logged as the store
	private static final Log logger = LogFactory.getLog(JdbcJobStore.class);

	private final List<Consumer<@Nullable String>> listeners = new CopyOnWriteArrayList<>();

	private final DataSource dataSource;

	/** The channel that tells of other processes' inserts, or {@code null} when the platform has none. */
	private final @Nullable String channel;

	InsertCallbacks(DataSource dataSource, @Nullable String channel) {
		this.dataSource = dataSource;
		this.channel = channel;
	}

	/** Adds a callback until the returned handle is closed. */
	AutoCloseable listen(Consumer<@Nullable String> onInsert) {
		this.listeners.add(onInsert);
		AutoCloseable others = (this.channel != null)
				? PostgresNotifications.start(this.dataSource, this.channel, onInsert) : null;
		return () -> {
			this.listeners.remove(onInsert);
			if (others != null) {
				others.close();
			}
		};
	}

	/** Tells the callbacks of jobs that became claimable in {@code queues}, once that commits. */
	void inserted(Collection<String> queues) {
		if (!this.listeners.isEmpty() && !queues.isEmpty()) {
			AfterCommit.run(() -> tell(queues));
		}
	}

	private void tell(Collection<String> queues) {
		for (Consumer<@Nullable String> listener : this.listeners) {
			for (String queue : queues) {
				try {
					listener.accept(queue);
				}
				catch (RuntimeException ex) {
					logger.warn("An insert listener failed; the job waits for the next poll", ex);
				}
			}
		}
	}

}

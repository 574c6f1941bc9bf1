package dev.ojs.jdbc;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;

/**
 * Which queues or job types have a limit, or whether jobs have sequence keys
 * ({@link SequenceKeys}), as claims ask it: read from the database at most
 * once a second, and again before the next claim after a limit changed on this node. When a
 * read fails, claims keep what was last read and a warning says why, once.
 *
 * @param <T> what is read
 */
final class LimitsCache<T> {

	private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final Log logger = LogFactory.getLog(LimitsCache.class);

	private final Supplier<T> read;

	/** The table read, named when it cannot be read. */
	private final String table;

	private volatile T value;

	private volatile long refreshedNanos;

	/** How many changes this node made; {@link #readAfter} is how many it had made when the last read began. */
	private final AtomicLong changes = new AtomicLong(1);

	/** Written after {@link #value}: a claim that sees it current sees what that read returned. */
	private volatile long readAfter;

	/** Whether the last read failed and said so. */
	private boolean warned;

	LimitsCache(Supplier<T> read, T initial, String table) {
		this.read = read;
		this.value = initial;
		this.table = table;
	}

	/**
	 * What was read, read again first when a second has passed or a limit changed. A claim
	 * that comes while another's read runs after a change waits for that read, rather than
	 * taking what was read before the change.
	 */
	T get() {
		if (current(System.nanoTime())) {
			return this.value;
		}
		synchronized (this) {
			if (!current(System.nanoTime())) {
				refresh();
			}
			return this.value;
		}
	}

	private boolean current(long now) {
		return this.readAfter == this.changes.get() && now - this.refreshedNanos < REFRESH_NANOS;
	}

	/** What was read last, without reading. */
	T last() {
		return this.value;
	}

	/** A limit changed on this node (or a job with a sequence key came): read again before the next claim. */
	void changed() {
		this.changes.incrementAndGet();
	}

	private void refresh() {
		// taken before the read: a limit changed while it runs has the next claim read again
		long changes = this.changes.get();
		try {
			this.value = this.read.get();
			this.warned = false;
		}
		catch (DataAccessException ex) {
			if (!this.warned) {
				logger.warn("OJS could not read the " + this.table
						+ " table (is it up to date with the schema script?); claims keep what was last read: " + ex);
			}
			this.warned = true;
		}
		this.refreshedNanos = System.nanoTime();
		this.readAfter = changes;
	}

}

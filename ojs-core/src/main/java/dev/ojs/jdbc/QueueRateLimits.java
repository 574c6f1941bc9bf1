package dev.ojs.jdbc;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.ojs.job.Job;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * Draws the claims of rate-limited queues (ojs-queue-config.md §8.3) from their buckets: such a
 * claim locks the queue's row, takes no more jobs than the bucket holds and moves the bucket on
 * by the jobs it took, all in one transaction. Every claim goes through it, in-process pollers'
 * and HTTP workers' fetches alike, so the limit holds across nodes and kinds of worker.
 * <p>
 * Which queues have a limit is read at most once a second, so a claim of a queue without one
 * costs nothing more; a new limit holds on every node within a second, at once on the node
 * that set it (a claim already under way there is not held back by it).
 */
final class QueueRateLimits {

	private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final Log logger = LogFactory.getLog(QueueRateLimits.class);

	private final QueueSql queues;

	/** The queue state table, named when its rate limits cannot be read. */
	private final String table;

	private volatile Map<String, RateLimit> limits = Map.of();

	private volatile long refreshedNanos;

	private volatile boolean stale = true;

	/** Whether the last read failed and said so. */
	private boolean warned;

	/** When each throttled queue's next token comes back. */
	private final Map<String, Instant> throttledUntil = new ConcurrentHashMap<>();

	QueueRateLimits(QueueSql queues, String table) {
		this.queues = queues;
		this.table = table;
	}

	/**
	 * Claims through {@code claim} (given how many jobs to take at most): at once for a queue
	 * without a limit, otherwise no more than its bucket holds at {@code now}.
	 */
	List<Job> claim(String queue, int limit, Instant now, IntFunction<List<Job>> claim) {
		if (!limits().containsKey(queue)) {
			return claim.apply(limit);
		}
		return this.queues.inBucketTransaction((status) -> {
			QueueSql.RateBucket bucket = this.queues.lockRateBucket(queue);
			if (bucket == null) {
				// the limit was removed since it was read
				this.throttledUntil.remove(queue);
				return claim.apply(limit);
			}
			long nanos = RateLimit.epochNanos(now);
			int available = bucket.limit().available(bucket.tat(), nanos);
			List<Job> claimed = (available > 0) ? claim.apply(Math.min(limit, available)) : List.of();
			Long tat = bucket.tat();
			if (!claimed.isEmpty()) {
				tat = bucket.limit().taken(tat, nanos, claimed.size());
				this.queues.setRateTat(queue, tat);
			}
			if (available < limit && claimed.size() == available) {
				// short for want of tokens, not of due jobs
				this.throttledUntil.put(queue, Instant.ofEpochSecond(0, bucket.limit().nextTokenAt(tat, nanos)));
			}
			else {
				this.throttledUntil.remove(queue);
			}
			return claimed;
		});
	}

	/** When the queue's next token comes back, if its last claim ran its bucket dry before its wish. */
	@Nullable Instant throttledUntil(String queue) {
		return this.throttledUntil.get(queue);
	}

	/** A limit changed on this node: read them again before the next claim. */
	void changed() {
		this.stale = true;
	}

	/** Reads the limits; when that fails, claims keep the limits last read and a warning says why. */
	private void refresh() {
		try {
			Map<String, RateLimit> limits = new HashMap<>();
			for (QueueState state : this.queues.all()) {
				if (state.rateLimit() != null) {
					limits.put(state.name(), state.rateLimit());
				}
			}
			this.limits = limits;
			this.throttledUntil.keySet().retainAll(this.limits.keySet());
			this.warned = false;
		}
		catch (DataAccessException ex) {
			if (!this.warned) {
				logger.warn("OJS could not read the queues' rate limits (is the " + this.table
						+ " table up to date with the schema script?); claims keep the limits last read: " + ex);
			}
			this.warned = true;
		}
		this.stale = false;
		this.refreshedNanos = System.nanoTime();
	}

	private Map<String, RateLimit> limits() {
		long now = System.nanoTime();
		if (this.stale || now - this.refreshedNanos >= REFRESH_NANOS) {
			synchronized (this) {
				if (this.stale || now - this.refreshedNanos >= REFRESH_NANOS) {
					refresh();
				}
			}
		}
		return this.limits;
	}

}

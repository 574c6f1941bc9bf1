package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * The SQL of the queue state table {@code <prefix>queues} (ojs-queue-config.md §5.1, §6.2,
 * §8.3): a row per queue that was paused or given a rate limit, created on first use, with
 * its rate limit's bucket.
 */
final class QueueSql extends SqlSupport {

	private static final String COLUMNS = "name, paused, paused_at, rate_limit, rate_period_ms";

	private final String queues;

	/** A rate-limited claim's transaction, holding its queue's bucket: always new, READ COMMITTED. */
	private final TransactionTemplate bucketTx;

	QueueSql(SqlSupport shared) {
		super(shared);
		this.queues = shared.settings.queuesTableName();
		this.bucketTx = workerTransaction();
	}

	// ---- pause

	/**
	 * Pauses or resumes a queue, creating its row when it has none; {@code paused_at} is
	 * kept when the queue already was in that state.
	 */
	void setPaused(String queue, boolean paused, Instant now) {
		if (updatePaused(queue, paused, now) > 0) {
			return;
		}
		try {
			this.jdbc.update("INSERT INTO " + this.queues + " (name, paused, paused_at) VALUES (?, ?, ?)", (ps) -> {
				ps.setString(1, queue);
				ps.setBoolean(2, paused);
				setInstant(ps, 3, paused ? now : null);
			});
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			updatePaused(queue, paused, now);
		}
	}

	private int updatePaused(String queue, boolean paused, Instant now) {
		// paused_at first: MariaDB assigns left to right, and would compare with the new paused
		return this.jdbc.update("UPDATE " + this.queues
				+ " SET paused_at = CASE WHEN paused = ? THEN paused_at ELSE ? END, paused = ? WHERE name = ?", (ps) -> {
					ps.setBoolean(1, paused);
					setInstant(ps, 2, paused ? now : null);
					ps.setBoolean(3, paused);
					ps.setString(4, queue);
				});
	}

	/** The names of the paused queues. */
	Set<String> paused() {
		return new HashSet<>(
				this.jdbc.queryForList("SELECT name FROM " + this.queues + " WHERE paused = TRUE", String.class));
	}

	// ---- states

	/** The stored state of a queue, if it has one. */
	Optional<QueueState> find(String queue) {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.queues + " WHERE name = ?", this::map, queue)
			.stream()
			.findFirst();
	}

	/** Every queue with a stored state, in name order. */
	List<QueueState> all() {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.queues + " ORDER BY name", this::map);
	}

	private QueueState map(ResultSet rs, int rowNum) throws SQLException {
		return new QueueState(rs.getString(1), rs.getBoolean(2), getInstant(rs, 3), rateLimit(rs, 4));
	}

	// ---- rate limits

	/** A queue's rate limit and its bucket's theoretical arrival time (epoch ns), as stored. */
	record RateBucket(RateLimit limit, @Nullable Long tat) {
	}

	/** Sets or (with {@code null}) removes a queue's rate limit, creating its row when it has none. */
	void setRateLimit(String queue, @Nullable RateLimit limit) {
		String update = "UPDATE " + this.queues + " SET rate_limit = ?, rate_period_ms = ? WHERE name = ?";
		PreparedStatementSetter values = (ps) -> {
			ps.setObject(1, (limit != null) ? limit.limit() : null, Types.INTEGER);
			ps.setObject(2, (limit != null) ? limit.period().toMillis() : null, Types.BIGINT);
			ps.setString(3, queue);
		};
		if (this.jdbc.update(update, values) > 0) {
			return;
		}
		try {
			this.jdbc.update("INSERT INTO " + this.queues + " (rate_limit, rate_period_ms, name, paused)"
					+ " VALUES (?, ?, ?, FALSE)", values);
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			this.jdbc.update(update, values);
		}
	}

	/**
	 * Runs a claim of a rate-limited queue in the transaction that holds the queue's bucket
	 * ({@link #lockRateBucket}) until it ends: the claims of one rate-limited queue draw from
	 * it one at a time on every node.
	 */
	List<Job> inBucketTransaction(TransactionCallback<List<Job>> claim) {
		List<Job> jobs = this.bucketTx.execute(claim);
		return (jobs != null) ? jobs : List.of();
	}

	/**
	 * Locks the queue's row until {@link #inBucketTransaction}'s transaction ends and reads
	 * its bucket; {@code null} when the queue has no rate limit.
	 */
	@Nullable RateBucket lockRateBucket(String queue) {
		List<RateBucket> buckets = this.jdbc.query("SELECT rate_limit, rate_period_ms, rate_tat FROM " + this.queues
				+ " WHERE name = ? FOR UPDATE", (rs, rowNum) -> {
					RateLimit limit = rateLimit(rs, 1);
					long tat = rs.getLong(3);
					return (limit != null) ? new RateBucket(limit, rs.wasNull() ? null : tat) : null;
				}, queue);
		return buckets.isEmpty() ? null : buckets.get(0);
	}

	/** Stores the bucket's theoretical arrival time after a claim drew from it. */
	void setRateTat(String queue, long tat) {
		this.jdbc.update("UPDATE " + this.queues + " SET rate_tat = ? WHERE name = ?", (ps) -> {
			ps.setLong(1, tat);
			ps.setString(2, queue);
		});
	}

	private static @Nullable RateLimit rateLimit(ResultSet rs, int column) throws SQLException {
		int limit = rs.getInt(column);
		if (rs.wasNull()) {
			return null;
		}
		long periodMillis = rs.getLong(column + 1);
		return rs.wasNull() ? null : new RateLimit(limit, Duration.ofMillis(periodMillis));
	}

}

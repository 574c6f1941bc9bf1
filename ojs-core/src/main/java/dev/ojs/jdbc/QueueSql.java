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
import java.util.SortedMap;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * The SQL of the queue state table {@code <prefix>queues} (ojs-queue-config.md §5.1, §6.2,
 * §8.3): a row per queue that was paused or given a rate limit or a concurrency limit, created
 * on first use, with its rate limit's bucket.
 */
final class QueueSql extends SqlSupport {

	private static final String COLUMNS = "name, paused, paused_at, rate_limit, rate_period_ms, concurrency";

	private final String queues;

	/** A limited queue's claim's transaction, holding its queue's row: always new, READ COMMITTED. */
	private final TransactionTemplate bucketTx;

	/** A refill's: the outcomes' transaction, which it must run in. */
	private final TransactionTemplate outcomesTx;

	QueueSql(SqlSupport shared) {
		super(shared);
		this.queues = shared.settings.queuesTableName();
		this.bucketTx = workerTransaction();
		this.outcomesTx = transaction(TransactionDefinition.PROPAGATION_MANDATORY,
				TransactionDefinition.ISOLATION_DEFAULT);
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
		return new QueueState(rs.getString(1), rs.getBoolean(2), getInstant(rs, 3), rateLimit(rs, 4),
				concurrency(rs, 6));
	}

	// ---- limits

	/**
	 * A limited queue's limits as stored: its rate limit and its bucket's theoretical arrival
	 * time (epoch ns), its concurrency limit, the most jobs of it that can be active (the last
	 * count, plus the jobs claimed since, less those that ended since) and when that count was
	 * made (epoch ms); each {@code null} when it has none.
	 */
	record Limits(@Nullable RateLimit rateLimit, @Nullable Long tat, @Nullable Integer concurrency,
			@Nullable Integer activeMax, @Nullable Long countedAt) {
	}

	/** Sets or (with {@code null}) removes a queue's rate limit, creating its row when it has none. */
	void setRateLimit(String queue, @Nullable RateLimit limit) {
		set(queue, "rate_limit = ?, rate_period_ms = ?", "rate_limit, rate_period_ms", (ps) -> {
			ps.setObject(1, (limit != null) ? limit.limit() : null, Types.INTEGER);
			ps.setObject(2, (limit != null) ? limit.period().toMillis() : null, Types.BIGINT);
			ps.setString(3, queue);
		});
	}

	/**
	 * Sets or (with {@code null}) removes a queue's concurrency limit, creating its row when it
	 * has none; the queue's active jobs are counted again at its next claim (claims of the queue
	 * while it had no limit were not added to {@code active_max}).
	 */
	void setConcurrency(String queue, @Nullable Integer concurrency) {
		set(queue, "concurrency = ?, active_max = NULL", "concurrency", (ps) -> {
			ps.setObject(1, concurrency, Types.INTEGER);
			ps.setString(2, queue);
		});
	}

	/**
	 * Updates the queue's row ({@code assignments}), or inserts it with {@code columns} when
	 * it has none; {@code values} binds the columns' values, then the name.
	 */
	private void set(String queue, String assignments, String columns, PreparedStatementSetter values) {
		String update = "UPDATE " + this.queues + " SET " + assignments + " WHERE name = ?";
		if (this.jdbc.update(update, values) > 0) {
			return;
		}
		int count = columns.split(",").length;
		try {
			this.jdbc.update("INSERT INTO " + this.queues + " (" + columns + ", name, paused) VALUES ("
					+ markers(count) + ", ?, FALSE)", values);
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			this.jdbc.update(update, values);
		}
	}

	/**
	 * Runs a claim of a limited queue in the transaction that holds the queue's row
	 * ({@link #lockLimits}) until it ends: the claims of one limited queue take their turns on
	 * every node; a refill's in the transaction of the outcomes it follows.
	 */
	List<Job> inLimitTransaction(TransactionCallback<List<Job>> claim, boolean refill) {
		List<Job> jobs = (refill ? this.outcomesTx : this.bucketTx).execute(claim);
		return (jobs != null) ? jobs : List.of();
	}

	/**
	 * Locks the queue's row until {@link #inLimitTransaction}'s transaction ends and reads its
	 * limits; {@code null} when the queue has no limit.
	 */
	@Nullable Limits lockLimits(String queue) {
		return limits(queue, " FOR UPDATE");
	}

	/**
	 * Reads the queue's limits as they stand, without locking its row (so without waiting for
	 * the transactions that hold it); {@code null} when the queue has no limit.
	 */
	@Nullable Limits readLimits(String queue) {
		return limits(queue, "");
	}

	private @Nullable Limits limits(String queue, String lock) {
		List<Limits> limits = this.jdbc.query("SELECT rate_limit, rate_period_ms, rate_tat, concurrency, active_max,"
				+ " counted_at FROM " + this.queues + " WHERE name = ?" + lock, (rs, rowNum) -> {
					RateLimit rateLimit = rateLimit(rs, 1);
					Long bucket = nullableLong(rs, 3);
					Integer concurrency = concurrency(rs, 4);
					return (rateLimit != null || concurrency != null)
							? new Limits(rateLimit, bucket, concurrency, concurrency(rs, 5), nullableLong(rs, 6)) : null;
				}, queue);
		return limits.isEmpty() ? null : limits.get(0);
	}

	/**
	 * The queue's active jobs, claimed by any node or worker and not yet ended (an expired
	 * reservation counts until the rescuer ends its attempt): by {@code state} and {@code queue},
	 * which the platforms' indexes on active jobs serve.
	 */
	int countActive(String queue) {
		Integer count = this.jdbc.queryForObject(
				"SELECT count(*) FROM " + this.table + " WHERE state = 'active' AND queue = ?", Integer.class, queue);
		return (count != null) ? count : 0;
	}

	/**
	 * Stores what a claim of a limited queue changed in its locked row: the bucket's theoretical
	 * arrival time, the most jobs of the queue that can now be active, and when they were last
	 * counted (epoch ms).
	 */
	void claimed(String queue, @Nullable Long tat, @Nullable Integer activeMax, @Nullable Long countedAt) {
		this.jdbc.update("UPDATE " + this.queues + " SET rate_tat = ?, active_max = ?, counted_at = ? WHERE name = ?",
				(ps) -> {
					ps.setObject(1, tat, Types.BIGINT);
					ps.setObject(2, activeMax, Types.INTEGER);
					ps.setObject(3, countedAt, Types.BIGINT);
					ps.setString(4, queue);
				});
	}

	/**
	 * Takes jobs that ended off their queues' {@code active_max}, in the transaction that ended
	 * them (by queue name; rows locked in name order). The row lock orders this with the claims'
	 * counts: a count before it saw the jobs active, one after it sees them ended.
	 */
	void ended(SortedMap<String, Integer> endedByQueue) {
		this.jdbc.batchUpdate("UPDATE " + this.queues + " SET active_max = CASE WHEN active_max > ? THEN active_max - ?"
				+ " ELSE 0 END WHERE name = ? AND concurrency IS NOT NULL AND active_max IS NOT NULL",
				List.copyOf(endedByQueue.entrySet()), CHUNK, (ps, ended) -> {
					ps.setInt(1, ended.getValue());
					ps.setInt(2, ended.getValue());
					ps.setString(3, ended.getKey());
				});
	}

	/**
	 * Has the next claims of these queues count their active jobs: for jobs that left
	 * {@code active} in a transaction that did not take them off {@code active_max}. Rows are
	 * written in the set's order (name order, as {@link #ended}).
	 */
	void recount(Set<String> queues) {
		this.jdbc.batchUpdate("UPDATE " + this.queues + " SET active_max = NULL WHERE name = ? AND active_max IS NOT NULL",
				List.copyOf(queues), CHUNK, (ps, queue) -> ps.setString(1, queue));
	}

	private static @Nullable Long nullableLong(ResultSet rs, int column) throws SQLException {
		long value = rs.getLong(column);
		return rs.wasNull() ? null : value;
	}

	private static @Nullable Integer concurrency(ResultSet rs, int column) throws SQLException {
		int concurrency = rs.getInt(column);
		return rs.wasNull() ? null : concurrency;
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

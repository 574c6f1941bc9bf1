package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;

import dev.ojs.admin.StatsBucket;

/**
 * The SQL of the outcome statistics, {@code <prefix>stats} (ojs-admin-api.md §10): counters
 * per minute, queue and writer, added to in the transaction of the outcomes they count.
 */
final class StatsSql extends SqlSupport {

	private static final String COLUMNS = "completed, failed, retried, dead_lettered, discarded";

	private final String stats;

	/** Adds one minute row's counters, creating the row. */
	private final String add;

	/**
	 * This store's key in the statistics rows: a store adds only to rows of its own, so
	 * outcome batches of different nodes never wait on one another's counter rows.
	 */
	private final String writer = UUID.randomUUID().toString();

	StatsSql(SqlSupport shared) {
		super(shared);
		this.stats = shared.settings.statsTableName();
		this.add = switch (this.platform) {
			case POSTGRESQL -> "INSERT INTO " + this.stats + " (minute_at, queue, writer, " + COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (minute_at, queue, writer) DO UPDATE SET"
					+ " completed = " + this.stats + ".completed + EXCLUDED.completed,"
					+ " failed = " + this.stats + ".failed + EXCLUDED.failed,"
					+ " retried = " + this.stats + ".retried + EXCLUDED.retried,"
					+ " dead_lettered = " + this.stats + ".dead_lettered + EXCLUDED.dead_lettered,"
					+ " discarded = " + this.stats + ".discarded + EXCLUDED.discarded";
			case MARIADB, MYSQL -> "INSERT INTO " + this.stats + " (minute_at, queue, writer, " + COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE completed = completed + VALUES(completed),"
					+ " failed = failed + VALUES(failed), retried = retried + VALUES(retried),"
					+ " dead_lettered = dead_lettered + VALUES(dead_lettered), discarded = discarded + VALUES(discarded)";
			case H2 -> "MERGE INTO " + this.stats + " s USING (VALUES (CAST(? AS TIMESTAMP WITH TIME ZONE),"
					+ " CAST(? AS VARCHAR(255)), CAST(? AS VARCHAR(64)), CAST(? AS BIGINT), CAST(? AS BIGINT),"
					+ " CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))) v (minute_at, queue, writer, "
					+ COLUMNS + ") ON s.minute_at = v.minute_at AND s.queue = v.queue AND s.writer = v.writer"
					+ " WHEN MATCHED THEN UPDATE SET"
					+ " completed = s.completed + v.completed, failed = s.failed + v.failed,"
					+ " retried = s.retried + v.retried, dead_lettered = s.dead_lettered + v.dead_lettered,"
					+ " discarded = s.discarded + v.discarded WHEN NOT MATCHED THEN INSERT (minute_at, queue, writer, "
					+ COLUMNS + ") VALUES (v.minute_at, v.queue, v.writer, v.completed, v.failed, v.retried,"
					+ " v.dead_lettered, v.discarded)";
		};
	}

	/**
	 * PostgreSQL: adds the rows of the query named {@code written} (a column {@code queue})
	 * as completed to their queues' rows of this writer and of the minute bound to the first
	 * {@code ?} ({@link #bindCompletedOf}), so the statement that completes jobs counts them.
	 */
	String addCompletedOf(String written) {
		return "INSERT INTO " + this.stats + " AS s (minute_at, queue, writer, " + COLUMNS + ") SELECT ?, queue, ?,"
				+ " count(*), 0, 0, 0, 0 FROM " + written + " GROUP BY queue ORDER BY queue"
				+ " ON CONFLICT (minute_at, queue, writer) DO UPDATE SET completed = s.completed + EXCLUDED.completed";
	}

	/** Binds the minute of {@code now} and this writer to {@link #addCompletedOf}'s markers, from {@code index}. */
	void bindCompletedOf(PreparedStatement ps, int index, Instant now) throws SQLException {
		setInstant(ps, index, now.truncatedTo(ChronoUnit.MINUTES));
		ps.setString(index + 1, this.writer);
	}

	/**
	 * Adds outcome counters to their queue's minute rows of this writer, one statement per
	 * row (in the caller's transaction when there is one).
	 */
	void add(List<StatsBucket> buckets) {
		// sorted, so concurrent writers lock rows in the same order
		List<StatsBucket> sorted = buckets.stream()
			.sorted((a, b) -> (a.start().equals(b.start())) ? a.queue().compareTo(b.queue())
					: a.start().compareTo(b.start()))
			.toList();
		for (StatsBucket bucket : sorted) {
			add(bucket);
		}
	}

	/**
	 * Adds one row's counters. H2's {@code MERGE} of two concurrent outcome batches of this
	 * writer may both find no row and insert it: the second fails on the key once the first
	 * commits, and is run again, finding the row then.
	 */
	private void add(StatsBucket bucket) {
		for (int tries = 1;; tries++) {
			try {
				this.jdbc.update(this.add, (ps) -> {
					setInstant(ps, 1, bucket.start());
					ps.setString(2, bucket.queue());
					ps.setString(3, this.writer);
					ps.setLong(4, bucket.completed());
					ps.setLong(5, bucket.failed());
					ps.setLong(6, bucket.retried());
					ps.setLong(7, bucket.deadLettered());
					ps.setLong(8, bucket.discarded());
				});
				return;
			}
			catch (DuplicateKeyException ex) {
				if (this.platform != JdbcPlatform.H2 || tries == 3) {
					throw ex;
				}
			}
		}
	}

	/** Minute rows between {@code since} and {@code until}, of one queue or all, oldest first. */
	List<StatsBucket> minutes(Instant since, Instant until, @Nullable String queue) {
		WhereClause where = new WhereClause(this);
		where.and("minute_at >= ?", since);
		where.and("minute_at < ?", until);
		where.and("queue = ?", queue);
		return this.jdbc.query("SELECT minute_at, queue, SUM(completed), SUM(failed), SUM(retried),"
				+ " SUM(dead_lettered), SUM(discarded) FROM " + this.stats + where.sql()
				+ " GROUP BY minute_at, queue ORDER BY minute_at, queue", where::bind,
				(rs, rowNum) -> new StatsBucket(getInstant(rs, 1), rs.getString(2), rs.getLong(3), rs.getLong(4),
						rs.getLong(5), rs.getLong(6), rs.getLong(7)));
	}

	/** Queues that had outcomes since {@code since}. */
	List<String> queuesSince(Instant since) {
		return this.jdbc.query("SELECT DISTINCT queue FROM " + this.stats + " WHERE minute_at >= ?",
				(ps) -> setInstant(ps, 1, since), (rs, rowNum) -> rs.getString(1));
	}

	/** Deletes minute rows before {@code cutoff}; returns how many. */
	int deleteBefore(Instant cutoff) {
		return this.jdbc.update("DELETE FROM " + this.stats + " WHERE minute_at < ?", (ps) -> setInstant(ps, 1, cutoff));
	}

}

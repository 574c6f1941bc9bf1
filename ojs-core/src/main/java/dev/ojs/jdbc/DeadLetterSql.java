package dev.ojs.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.Job;

/**
 * The SQL of dead letters, the discarded jobs marked as such on the job table: pages,
 * counts and statistics, and their revival. Their delete is {@link DeleteSql}'s.
 */
final class DeadLetterSql extends SqlSupport {

	private final JobRows rows;

	DeadLetterSql(SqlSupport shared, JobRows rows) {
		super(shared);
		this.rows = rows;
	}

	/** A page of the dead letters matching {@code filter}, most recently discarded first. */
	List<Job> find(DeadLetterFilter filter, int offset, int limit) {
		WhereClause where = where(filter);
		where.params.add(limit);
		where.params.add(offset);
		return this.rows.read("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + where.sql()
				+ " ORDER BY discarded_at DESC, id DESC LIMIT ? OFFSET ?", where::bind);
	}

	/** Dead letters after ({@code discardedAt}, {@code id}) in the newest-first order: a keyset page. */
	List<Job> findBefore(DeadLetterFilter filter, Instant discardedAt, String id, int limit) {
		WhereClause where = where(filter);
		where.add("(discarded_at < ? OR (discarded_at = ? AND id < " + idParam() + "))", discardedAt, discardedAt, id);
		where.params.add(limit);
		return this.rows.read("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + where.sql()
				+ " ORDER BY discarded_at DESC, id DESC LIMIT ?", where::bind);
	}

	long count(DeadLetterFilter filter) {
		WhereClause where = where(filter);
		Long count = this.jdbc.query("SELECT count(*) FROM " + this.table + where.sql(), where::bind,
				(rs) -> rs.next() ? rs.getLong(1) : 0L);
		return (count != null) ? count : 0;
	}

	/** Number of dead letters per queue, in name order. */
	Map<String, Long> countsByQueue() {
		Map<String, Long> counts = new TreeMap<>();
		this.jdbc.query("SELECT queue, count(*) FROM " + this.table + " WHERE " + JobRows.DEAD_LETTER
				+ " GROUP BY queue", (rs) -> {
					counts.put(rs.getString(1), rs.getLong(2));
				});
		return counts;
	}

	/**
	 * The dead letters in all: per queue, per last error type ({@code "unknown"} for none),
	 * and when the oldest and the newest were discarded.
	 */
	DeadLetterStats stats() {
		Map<String, Long> byQueue = countsByQueue();
		Map<String, Long> byErrorType = new TreeMap<>();
		this.jdbc.query("SELECT last_error_type, count(*) FROM " + this.table + " WHERE " + JobRows.DEAD_LETTER
				+ " GROUP BY last_error_type", (rs) -> {
					byErrorType.put(Objects.toString(rs.getString(1), "unknown"), rs.getLong(2));
				});
		Discarded range = this.jdbc.query(
				"SELECT min(discarded_at), max(discarded_at) FROM " + this.table + " WHERE " + JobRows.DEAD_LETTER,
				(rs) -> rs.next() ? new Discarded(getInstant(rs, 1), getInstant(rs, 2)) : null);
		long total = byQueue.values().stream().mapToLong(Long::longValue).sum();
		return (range != null) ? new DeadLetterStats(total, byQueue, byErrorType, range.oldest(), range.newest())
				: new DeadLetterStats(total, byQueue, byErrorType, null, null);
	}

	/** When dead letters were discarded, oldest to newest. */
	private record Discarded(@Nullable Instant oldest, @Nullable Instant newest) {
	}

	/** A dead letter's id and unique key ({@code null} when it has none). */
	record Key(String id, @Nullable String uniqueKey) {
	}

	/** Id and unique key of each dead letter matching {@code filter}. */
	List<Key> keys(DeadLetterFilter filter) {
		WhereClause where = where(filter);
		return this.jdbc.query("SELECT id, unique_key FROM " + this.table + where.sql(), where::bind,
				(rs, rowNum) -> new Key(rs.getString(1), rs.getString(2)));
	}

	/**
	 * Makes these dead letters available again as of {@code now}, from attempt 0 without
	 * their error type and reservation; returns how many were dead letters.
	 */
	int revive(List<String> ids, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'available', attempt = 0,"
				+ " dead_letter = FALSE, last_error_type = NULL, scheduled_at = ?, enqueued_at = ?,"
				+ " discarded_at = NULL, completed_at = NULL, started_at = NULL, locked_by = NULL, locked_until = NULL WHERE "
				+ JobRows.DEAD_LETTER + " AND id IN (" + idMarkers(ids.size()) + ")", (ps) -> {
					setInstant(ps, 1, now);
					setInstant(ps, 2, now);
					int index = 3;
					for (String id : ids) {
						ps.setString(index++, id);
					}
				});
	}

	/** The dead letters that match a filter. */
	private WhereClause where(@Nullable DeadLetterFilter filter) {
		DeadLetterFilter f = (filter != null) ? filter : DeadLetterFilter.ALL;
		WhereClause where = new WhereClause(this);
		where.add(JobRows.DEAD_LETTER);
		where.and("queue = ?", f.queue());
		where.and("type = ?", f.type());
		where.and("last_error_type = ?", f.errorType());
		where.and("discarded_at >= ?", f.from());
		where.and("discarded_at < ?", f.to());
		return where;
	}

}

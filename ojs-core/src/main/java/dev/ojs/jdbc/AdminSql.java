package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.FailingType;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;

/**
 * The SQL of the Admin API's reads and bulk writes on the job table, on every platform;
 * where platforms differ (count estimates, a loose index scan) the statement is chosen by
 * platform.
 * <p>
 * Lists are keyset pages in id order, never {@code OFFSET}: ids are UUIDv7 made from
 * {@code created_at}'s millisecond ({@link JobIds}), so the primary key orders jobs by creation
 * and bounds a creation-time range, and the job table needs no full index of its own for
 * lists (each one would cost every job an entry per state change on PostgreSQL). Counts are
 * exact up to a cap (a {@code LIMIT}ed sub-select) and beyond it the planner's estimate
 * ({@code EXPLAIN}'s row estimate on PostgreSQL, MariaDB and MySQL; H2 counts exactly).
 */
final class AdminSql extends SqlSupport {

	/** Above this many jobs (PostgreSQL's estimate) queue counts are estimated without trying to count. */
	static final long LARGE_TABLE_ROWS = 300_000;

	private final JobRows rows;

	private final JobSql jobs;

	/** A count bounded by a statement timeout: a transaction of its own, READ COMMITTED. */
	private final TransactionTemplate countTx;

	AdminSql(SqlSupport shared, JobRows rows, JobSql jobs) {
		super(shared);
		this.rows = rows;
		this.jobs = jobs;
		this.countTx = workerTransaction();
	}

	// ---- job lists

	/** Up to {@code limit} jobs matching the query after its cursor, in its order. */
	List<Job> page(JobQuery query, int limit) {
		WhereClause where = where(query, true);
		String direction = query.ascending() ? "ASC" : "DESC";
		where.params.add(limit);
		return this.rows.read("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + where.sql()
				+ " ORDER BY id " + direction + " LIMIT ?", where::bind);
	}

	/** How many jobs match, counting at most {@code cap}. */
	long countUpTo(JobQuery query, long cap) {
		WhereClause where = where(query, false);
		where.params.add(cap);
		Long count = this.jdbc.query(countSql(where), where::bind, (rs) -> rs.next() ? rs.getLong(1) : 0L);
		return (count != null) ? count : 0;
	}

	/**
	 * {@link #countUpTo} on PostgreSQL when the planner costs the capped count at most
	 * {@code maxCost} and it finishes within {@code timeoutMillis} (a filter that no index
	 * serves may have to scan the table to find {@code cap} rows); {@code null} otherwise,
	 * without trying when the cost is above. Other platforms count without a limit.
	 */
	@Nullable Long countUpTo(JobQuery query, long cap, int timeoutMillis, double maxCost) {
		if (this.platform != JdbcPlatform.POSTGRESQL) {
			return countUpTo(query, cap);
		}
		WhereClause where = where(query, false);
		where.params.add(cap);
		Double cost = this.jdbc.query("EXPLAIN (FORMAT TEXT) " + countSql(where), where::bind,
				(rs) -> rs.next() ? planCost(rs.getString(1)) : null);
		if (cost != null && cost > maxCost) {
			return null;
		}
		try {
			return this.countTx.execute((status) -> {
				this.jdbc.execute("SET LOCAL statement_timeout = " + Math.max(1, timeoutMillis));
				return countUpTo(query, cap);
			});
		}
		catch (DataAccessException ex) {
			if (isCancelled(ex)) {
				return null;
			}
			throw ex;
		}
	}

	private String countSql(WhereClause where) {
		return "SELECT count(*) FROM (SELECT 1 AS one FROM " + this.table + where.sql() + " LIMIT ?) capped";
	}

	/** The planner's estimate of the matching rows, or {@code null} when the platform has none. */
	@Nullable Long estimate(JobQuery query) {
		WhereClause where = where(query, false);
		return switch (this.platform) {
			case POSTGRESQL -> this.jdbc.query("EXPLAIN (FORMAT TEXT) SELECT 1 FROM " + this.table + where.sql(),
					where::bind, (rs) -> rs.next() ? planRows(rs.getString(1)) : null);
			case MARIADB, MYSQL -> this.jdbc.query("EXPLAIN SELECT 1 FROM " + this.table + where.sql(), where::bind,
					(rs) -> rs.next() ? rs.getLong("rows") : null);
			case H2 -> null;
		};
	}

	/**
	 * {@link #estimate} of each query, in order; on PostgreSQL all of them in one round trip
	 * (one statement of {@code EXPLAIN}s).
	 */
	List<@Nullable Long> estimates(List<JobQuery> queries) {
		if (this.platform != JdbcPlatform.POSTGRESQL || queries.size() < 2) {
			return queries.stream().map(this::estimate).toList();
		}
		WhereClause all = new WhereClause(this);
		List<String> statements = new ArrayList<>(queries.size());
		for (JobQuery query : queries) {
			WhereClause where = where(query, false);
			statements.add("EXPLAIN (FORMAT TEXT) SELECT 1 FROM " + this.table + where.sql());
			all.params.addAll(where.params);
		}
		List<@Nullable Long> rows = this.jdbc.execute((ConnectionCallback<List<@Nullable Long>>) (con) -> {
			try (PreparedStatement ps = con.prepareStatement(String.join("; ", statements))) {
				all.bind(ps);
				List<@Nullable Long> found = new ArrayList<>(queries.size());
				boolean result = ps.execute();
				while (result || ps.getUpdateCount() != -1) {
					if (result) {
						try (ResultSet rs = ps.getResultSet()) {
							found.add(rs.next() ? planRows(rs.getString(1)) : null);
						}
					}
					result = ps.getMoreResults();
				}
				return found;
			}
		});
		return (rows != null) ? rows : queries.stream().map(this::estimate).toList();
	}

	/** The total cost ({@code cost=startup..total}) of a PostgreSQL plan's top line. */
	static @Nullable Double planCost(@Nullable String line) {
		int at = (line != null) ? line.indexOf("cost=") : -1;
		int from = (at >= 0) ? line.indexOf("..", at) + 2 : -1;
		if (from < 2) {
			return null;
		}
		int end = from;
		while (end < line.length() && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '.')) {
			end++;
		}
		return Double.parseDouble(line.substring(from, end));
	}

	/** {@code rows=N} of a PostgreSQL plan's top line. */
	static @Nullable Long planRows(@Nullable String line) {
		int at = (line != null) ? line.indexOf("rows=") : -1;
		if (at < 0) {
			return null;
		}
		int end = at + 5;
		while (end < line.length() && Character.isDigit(line.charAt(end))) {
			end++;
		}
		return Long.parseLong(line.substring(at + 5, end));
	}

	/** Ids of up to {@code limit} matching jobs, oldest first. */
	List<String> ids(JobQuery query, int limit) {
		WhereClause where = where(query, false);
		where.params.add(limit);
		return this.jdbc.query("SELECT id FROM " + this.table + where.sql() + " ORDER BY id LIMIT ?",
				where::bind, (rs, rowNum) -> rs.getString(1));
	}

	// ---- queues

	/**
	 * Jobs per queue and state, exactly, when counting takes at most {@code timeoutMillis}
	 * on PostgreSQL; {@code null} when it takes longer. Other platforms count without a limit.
	 */
	@Nullable Map<String, Map<JobState, Long>> countByQueueAndState(int timeoutMillis) {
		if (this.platform != JdbcPlatform.POSTGRESQL) {
			return this.jobs.countByQueueAndState();
		}
		if (estimatedRows() > LARGE_TABLE_ROWS) {
			// would time out: spare the attempt
			return null;
		}
		try {
			return this.countTx.execute((status) -> {
				this.jdbc.execute("SET LOCAL statement_timeout = " + Math.max(1, timeoutMillis));
				return this.jobs.countByQueueAndState();
			});
		}
		catch (DataAccessException ex) {
			if (isCancelled(ex)) {
				return null;
			}
			throw ex;
		}
	}

	/** The job table's row count as PostgreSQL last estimated it ({@code pg_class.reltuples}); -1 when unknown. */
	long estimatedRows() {
		List<Long> rows = this.jdbc.queryForList(
				"SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)", Long.class, this.table);
		return (rows.isEmpty() || rows.get(0) == null) ? -1 : rows.get(0);
	}

	private static boolean isCancelled(DataAccessException ex) {
		return ex.getMostSpecificCause() instanceof SQLException sql && "57014".equals(sql.getSQLState());
	}

	/**
	 * Per queue, when its oldest ready job (claimable and due at {@code now}) became due. On
	 * PostgreSQL a loose index scan of the claim index: queue by queue, priority by priority,
	 * the first due entry; a few index probes per queue and priority, however many jobs wait.
	 */
	Map<String, Instant> oldestReady(Instant now) {
		String claimable = " WHERE j.state IN (" + JobRows.CLAIMABLE + ")";
		String sql = switch (this.platform) {
			case POSTGRESQL -> "WITH RECURSIVE q AS ((SELECT j.queue FROM " + this.table + " j" + claimable
					+ " ORDER BY j.queue LIMIT 1) UNION ALL SELECT (SELECT j.queue FROM " + this.table + " j"
					+ claimable + " AND j.queue > q.queue ORDER BY j.queue LIMIT 1) FROM q WHERE q.queue IS NOT NULL),"
					+ " p AS (SELECT q.queue, (SELECT j.priority FROM " + this.table + " j" + claimable
					+ " AND j.queue = q.queue ORDER BY j.priority DESC LIMIT 1) AS priority FROM q"
					+ " WHERE q.queue IS NOT NULL UNION ALL SELECT p.queue, (SELECT j.priority FROM " + this.table
					+ " j" + claimable + " AND j.queue = p.queue AND j.priority < p.priority"
					+ " ORDER BY j.priority DESC LIMIT 1) FROM p WHERE p.priority IS NOT NULL)"
					+ " SELECT p.queue, min(o.scheduled_at) FROM p CROSS JOIN LATERAL (SELECT j.scheduled_at FROM "
					+ this.table + " j" + claimable + " AND j.queue = p.queue AND j.priority = p.priority"
					+ " AND j.scheduled_at <= ? ORDER BY j.scheduled_at LIMIT 1) o WHERE p.priority IS NOT NULL"
					+ " GROUP BY p.queue";
			case MARIADB, MYSQL, H2 -> "SELECT j.queue, min(j.scheduled_at) FROM " + this.table + " j" + claimable
					+ " AND j.scheduled_at <= ? GROUP BY j.queue";
		};
		Map<String, Instant> oldest = new HashMap<>();
		this.jdbc.query(sql, (ps) -> setInstant(ps, 1, now), (rs) -> {
			oldest.put(rs.getString(1), getInstant(rs, 2));
		});
		return oldest;
	}

	// ---- dead letters

	/** Dead letters matching the query grouped by error type, job type and queue, largest first. */
	List<DeadLetterGroup> deadLetterGroups(JobQuery query, int limit) {
		WhereClause where = where(query.withState(JobState.DISCARDED, true), false);
		where.params.add(limit);
		return this.jdbc.query("SELECT last_error_type, type, queue, count(*) AS n, min(discarded_at),"
				+ " max(discarded_at) FROM " + this.table + where.sql()
				+ " GROUP BY last_error_type, type, queue ORDER BY n DESC, last_error_type, type, queue LIMIT ?",
				where::bind, (rs, rowNum) -> new DeadLetterGroup(rs.getString(1), rs.getString(2), rs.getString(3),
						rs.getLong(4), getInstant(rs, 5), getInstant(rs, 6)));
	}

	// ---- retry and delete

	/** A terminal job that may be put back in line. */
	record Revivable(String id, @Nullable String type, @Nullable String uniqueKey) {
	}

	/** Those of the ids that are discarded or cancelled. */
	List<Revivable> revivable(List<String> ids) {
		return this.jdbc.query("SELECT id, type, unique_key FROM " + this.table + " WHERE state IN ('discarded',"
				+ " 'cancelled') AND id IN (" + idMarkers(ids.size()) + ")", (ps) -> bindIds(ps, 1, ids),
				(rs, rowNum) -> new Revivable(rs.getString(1), rs.getString(2), rs.getString(3)));
	}

	/**
	 * Makes these discarded or cancelled jobs available as of {@code now}, from attempt 0
	 * without their error type and reservation (as a retried dead letter); returns how many.
	 */
	int revive(List<String> ids, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'available', attempt = 0,"
				+ " dead_letter = FALSE, last_error_type = NULL, scheduled_at = ?, enqueued_at = ?,"
				+ " discarded_at = NULL, completed_at = NULL, started_at = NULL, locked_by = NULL, locked_until = NULL"
				+ " WHERE state IN ('discarded', 'cancelled') AND id IN (" + idMarkers(ids.size()) + ")",
				(ps) -> {
					setInstant(ps, 1, now);
					setInstant(ps, 2, now);
					bindIds(ps, 3, ids);
				});
	}

	private void bindIds(PreparedStatement ps, int first, Collection<String> ids) throws SQLException {
		int index = first;
		for (String id : ids) {
			ps.setString(index++, id);
		}
	}

	// ---- failing types

	/** Job types with the most jobs that failed since {@code since} and are retrying or discarded. */
	List<FailingType> topFailing(Instant since, int limit) {
		List<FailingType> top = this.jdbc.query("SELECT type, queue, count(*) AS n, max(CASE WHEN state = 'discarded'"
				+ " THEN discarded_at ELSE started_at END) FROM " + this.table + " WHERE last_error_type IS NOT NULL"
				+ " AND ((state = 'discarded' AND discarded_at >= ?) OR (state = 'retryable' AND started_at >= ?))"
				+ " GROUP BY type, queue ORDER BY n DESC, type, queue LIMIT ?", (ps) -> {
					setInstant(ps, 1, since);
					setInstant(ps, 2, since);
					ps.setInt(3, limit);
				}, (rs, rowNum) -> new FailingType(rs.getString(1), rs.getString(2), rs.getLong(3), null,
						getInstant(rs, 4)));
		return top.stream()
			.map((failing) -> new FailingType(failing.type(), failing.queue(), failing.failed(),
					latestErrorType(failing.type(), failing.queue()), failing.lastFailedAt()))
			.toList();
	}

	private @Nullable String latestErrorType(String type, String queue) {
		List<String> found = this.jdbc.queryForList("SELECT last_error_type FROM " + this.table
				+ " WHERE type = ? AND queue = ? AND last_error_type IS NOT NULL AND state IN ('retryable', 'discarded')"
				+ " ORDER BY id DESC LIMIT 1", String.class, type, queue);
		return found.isEmpty() ? null : found.get(0);
	}

	// ---- filters

	private WhereClause where(JobQuery query, boolean withCursor) {
		WhereClause where = new WhereClause(this);
		where.and("state = ?", (query.state() != null) ? query.state().value() : null);
		where.and("dead_letter = ?", query.deadLetter());
		where.and("queue = ?", query.queue());
		if (query.type() != null && query.typePrefix()) {
			where.and("type LIKE ? ESCAPE '!'", query.type().replace("!", "!!").replace("%", "!%").replace("_", "!_")
					+ "%");
		}
		else {
			where.and("type = ?", query.type());
		}
		where.and("last_error_type = ?", query.errorType());
		where.createdFrom(query.since());
		where.createdBefore(query.until());
		where.and("id = " + idParam(), query.id());
		if (withCursor && query.after() != null) {
			where.add("id " + (query.ascending() ? ">" : "<") + " " + idParam(), query.after().id());
		}
		return where;
	}

}

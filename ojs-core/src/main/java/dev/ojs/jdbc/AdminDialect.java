package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.FailingType;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.worker.NodeInfo;

/**
 * The SQL of the Admin API's reads and bulk writes on the job table, and of the
 * {@code <prefix>nodes} and {@code <prefix>stats} tables, on every platform. Values are
 * bound the way the platform's {@link JdbcDialect} binds them; where platforms differ (row
 * comparisons, count estimates, upserts) the statement is chosen by platform.
 * <p>
 * Lists are keyset pages in id order, never {@code OFFSET}: ids are UUIDv7 made from
 * {@code created_at}'s millisecond ({@link JobIds}), so the primary key orders jobs by creation
 * and bounds a creation-time range, and the job table needs no full index of its own for
 * lists (each one would cost every job an entry per state change on PostgreSQL). Counts are
 * exact up to a cap (a {@code LIMIT}ed sub-select) and beyond it the planner's estimate
 * ({@code EXPLAIN}'s row estimate on PostgreSQL, MariaDB and MySQL; H2 counts exactly).
 */
final class AdminDialect {

	/** Terminal states: only these may be deleted or purged. */
	static final String TERMINAL = "'completed', 'discarded', 'cancelled'";

	private static final String NODE_COLUMNS = "node_id, application, hostname, queues, concurrency, running_jobs,"
			+ " started_at, last_seen_at, version, kind";

	/** Above this many jobs (PostgreSQL's estimate) queue counts are estimated without trying to count. */
	static final long LARGE_TABLE_ROWS = 300_000;

	private static final String STATS_COLUMNS = "completed, failed, retried, dead_lettered, discarded";

	private final JdbcDialect jobs;

	private final JdbcTemplate jdbc;

	private final String table;

	private final String nodes;

	private final String stats;

	/**
	 * This store's key in the statistics rows: a store adds only to rows of its own, so
	 * outcome batches of different nodes never wait on one another's counter rows.
	 */
	private final String writer = UUID.randomUUID().toString();

	AdminDialect(JdbcDialect jobs, JdbcStoreSettings settings) {
		this.jobs = jobs;
		this.jdbc = jobs.jdbc;
		this.table = jobs.table;
		this.nodes = settings.nodesTableName();
		this.stats = settings.statsTableName();
	}

	// ---- job lists

	/** Up to {@code limit} jobs matching the query after its cursor, in its order. */
	List<Job> page(JobQuery query, int limit) {
		Where where = where(query, true);
		String direction = query.ascending() ? "ASC" : "DESC";
		where.params.add(limit);
		return this.jobs.readJobs("SELECT " + JdbcDialect.SELECT_COLUMNS + " FROM " + this.table + where.sql()
				+ " ORDER BY id " + direction + " LIMIT ?", where::bind);
	}

	/** How many jobs match, counting at most {@code cap}. */
	long countUpTo(JobQuery query, long cap) {
		Where where = where(query, false);
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
		if (this.jobs.platform != JdbcPlatform.POSTGRESQL) {
			return countUpTo(query, cap);
		}
		Where where = where(query, false);
		where.params.add(cap);
		Double cost = this.jdbc.query("EXPLAIN (FORMAT TEXT) " + countSql(where), where::bind,
				(rs) -> rs.next() ? planCost(rs.getString(1)) : null);
		if (cost != null && cost > maxCost) {
			return null;
		}
		try {
			return this.jobs.workerTx.execute((status) -> {
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

	private String countSql(Where where) {
		return "SELECT count(*) FROM (SELECT 1 AS one FROM " + this.table + where.sql() + " LIMIT ?) capped";
	}

	/** The planner's estimate of the matching rows, or {@code null} when the platform has none. */
	@Nullable Long estimate(JobQuery query) {
		Where where = where(query, false);
		return switch (this.jobs.platform) {
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
		if (this.jobs.platform != JdbcPlatform.POSTGRESQL || queries.size() < 2) {
			return queries.stream().map(this::estimate).toList();
		}
		Where all = new Where();
		List<String> statements = new ArrayList<>(queries.size());
		for (JobQuery query : queries) {
			Where where = where(query, false);
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
		Where where = where(query, false);
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
		if (this.jobs.platform != JdbcPlatform.POSTGRESQL) {
			return this.jobs.countByQueueAndState();
		}
		if (estimatedRows() > LARGE_TABLE_ROWS) {
			// would time out: spare the attempt
			return null;
		}
		try {
			return this.jobs.workerTx.execute((status) -> {
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

	/** The queues of the published handlers. */
	List<String> handlerQueues() {
		return this.jdbc.queryForList("SELECT DISTINCT queue FROM " + this.jobs.handlersTable, String.class);
	}

	/** Queues that had outcomes since {@code since}. */
	List<String> recentStatsQueues(Instant since) {
		return this.jdbc.query("SELECT DISTINCT queue FROM " + this.stats + " WHERE minute_at >= ?",
				(ps) -> this.jobs.setInstant(ps, 1, since), (rs, rowNum) -> rs.getString(1));
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
		String claimable = " WHERE j.state IN (" + JdbcDialect.CLAIMABLE + ")";
		String sql = switch (this.jobs.platform) {
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
		this.jdbc.query(sql, (ps) -> this.jobs.setInstant(ps, 1, now), (rs) -> {
			oldest.put(rs.getString(1), this.jobs.getInstant(rs, 2));
		});
		return oldest;
	}

	// ---- dead letters

	/** Dead letters matching the query grouped by error type, job type and queue, largest first. */
	List<DeadLetterGroup> deadLetterGroups(JobQuery query, int limit) {
		Where where = where(query.withState(JobState.DISCARDED, true), false);
		where.params.add(limit);
		return this.jdbc.query("SELECT last_error_type, type, queue, count(*) AS n, min(discarded_at),"
				+ " max(discarded_at) FROM " + this.table + where.sql()
				+ " GROUP BY last_error_type, type, queue ORDER BY n DESC, last_error_type, type, queue LIMIT ?",
				where::bind, (rs, rowNum) -> new DeadLetterGroup(rs.getString(1), rs.getString(2), rs.getString(3),
						rs.getLong(4), this.jobs.getInstant(rs, 5), this.jobs.getInstant(rs, 6)));
	}

	// ---- retry and delete

	/** A terminal job that may be put back in line. */
	record Revivable(String id, @Nullable String type, @Nullable String uniqueKey) {
	}

	/** Those of the ids that are discarded or cancelled. */
	List<Revivable> revivable(List<String> ids) {
		return this.jdbc.query("SELECT id, type, unique_key FROM " + this.table + " WHERE state IN ('discarded',"
				+ " 'cancelled') AND id IN (" + this.jobs.idMarkers(ids.size()) + ")", (ps) -> bindIds(ps, 1, ids),
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
				+ " WHERE state IN ('discarded', 'cancelled') AND id IN (" + this.jobs.idMarkers(ids.size()) + ")",
				(ps) -> {
					this.jobs.setInstant(ps, 1, now);
					this.jobs.setInstant(ps, 2, now);
					bindIds(ps, 3, ids);
				});
	}

	/** Deletes those of the ids that are terminal; returns how many. */
	int delete(List<String> ids) {
		return this.jobs.deleteJobs(ids, "state IN (" + TERMINAL + ")", List.of());
	}

	/** Deletes up to {@code limit} jobs of the queue in these states created before {@code olderThan}. */
	int purge(String queue, Set<JobState> states, @Nullable Instant olderThan, int limit) {
		Where where = purgeWhere(queue, states, olderThan);
		return this.jobs.deleteJobs(where.conditions(), where.params, "id", limit);
	}

	long countPurgeable(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		Where where = purgeWhere(queue, states, olderThan);
		Long count = this.jdbc.query("SELECT count(*) FROM " + this.table + where.sql(), where::bind,
				(rs) -> rs.next() ? rs.getLong(1) : 0L);
		return (count != null) ? count : 0;
	}

	private Where purgeWhere(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		Where where = new Where();
		where.and("queue = ?", queue);
		where.in("state", states.stream().map(JobState::value).sorted().toList());
		where.createdBefore(olderThan);
		return where;
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
					this.jobs.setInstant(ps, 1, since);
					this.jobs.setInstant(ps, 2, since);
					ps.setInt(3, limit);
				}, (rs, rowNum) -> new FailingType(rs.getString(1), rs.getString(2), rs.getLong(3), null,
						this.jobs.getInstant(rs, 4)));
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

	// ---- nodes

	/** Inserts or replaces a node's row: one statement. */
	void upsertNode(NodeInfo node) {
		String sql = switch (this.jobs.platform) {
			case POSTGRESQL -> "INSERT INTO " + this.nodes + " (" + NODE_COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET"
					+ " application = EXCLUDED.application, hostname = EXCLUDED.hostname, queues = EXCLUDED.queues,"
					+ " concurrency = EXCLUDED.concurrency, running_jobs = EXCLUDED.running_jobs,"
					+ " started_at = EXCLUDED.started_at, last_seen_at = EXCLUDED.last_seen_at,"
					+ " version = EXCLUDED.version, kind = EXCLUDED.kind";
			case MARIADB, MYSQL -> "INSERT INTO " + this.nodes + " (" + NODE_COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE application = VALUES(application),"
					+ " hostname = VALUES(hostname), queues = VALUES(queues), concurrency = VALUES(concurrency),"
					+ " running_jobs = VALUES(running_jobs), started_at = VALUES(started_at),"
					+ " last_seen_at = VALUES(last_seen_at), version = VALUES(version), kind = VALUES(kind)";
			case H2 -> "MERGE INTO " + this.nodes + " (" + NODE_COLUMNS + ") KEY (node_id)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
		};
		this.jdbc.update(sql, (ps) -> {
			ps.setString(1, node.nodeId());
			ps.setString(2, node.application());
			ps.setString(3, node.hostname());
			ps.setString(4, String.join(",", node.queues()));
			ps.setInt(5, node.concurrency());
			ps.setInt(6, node.runningJobs());
			this.jobs.setInstant(ps, 7, node.startedAt());
			this.jobs.setInstant(ps, 8, node.lastSeenAt());
			ps.setString(9, node.version());
			ps.setString(10, node.kind());
		});
	}

	void deleteNode(String nodeId) {
		this.jdbc.update("DELETE FROM " + this.nodes + " WHERE node_id = ?", nodeId);
	}

	/** Deletes nodes not seen since {@code cutoff}; returns how many. */
	int deleteNodesBefore(Instant cutoff) {
		return this.jdbc.update("DELETE FROM " + this.nodes + " WHERE last_seen_at < ?",
				(ps) -> this.jobs.setInstant(ps, 1, cutoff));
	}

	List<NodeInfo> nodes() {
		return this.jdbc.query("SELECT " + NODE_COLUMNS + " FROM " + this.nodes + " ORDER BY node_id",
				this::mapNode);
	}

	private NodeInfo mapNode(ResultSet rs, int rowNum) throws SQLException {
		String queues = rs.getString(4);
		return new NodeInfo(rs.getString(1), rs.getString(2), rs.getString(3),
				(queues == null || queues.isEmpty()) ? List.of() : Arrays.asList(queues.split(",")), rs.getInt(5),
				rs.getInt(6), this.jobs.getInstant(rs, 7), this.jobs.getInstant(rs, 8), rs.getString(9),
				rs.getString(10));
	}

	// ---- stats

	/**
	 * Adds outcome counters to their queue's minute rows of this writer, one statement per
	 * row (in the caller's transaction when there is one).
	 */
	void addStats(List<StatsBucket> buckets) {
		String sql = switch (this.jobs.platform) {
			case POSTGRESQL -> "INSERT INTO " + this.stats + " (minute_at, queue, writer, " + STATS_COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (minute_at, queue, writer) DO UPDATE SET"
					+ " completed = " + this.stats + ".completed + EXCLUDED.completed,"
					+ " failed = " + this.stats + ".failed + EXCLUDED.failed,"
					+ " retried = " + this.stats + ".retried + EXCLUDED.retried,"
					+ " dead_lettered = " + this.stats + ".dead_lettered + EXCLUDED.dead_lettered,"
					+ " discarded = " + this.stats + ".discarded + EXCLUDED.discarded";
			case MARIADB, MYSQL -> "INSERT INTO " + this.stats + " (minute_at, queue, writer, " + STATS_COLUMNS
					+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE completed = completed + VALUES(completed),"
					+ " failed = failed + VALUES(failed), retried = retried + VALUES(retried),"
					+ " dead_lettered = dead_lettered + VALUES(dead_lettered), discarded = discarded + VALUES(discarded)";
			case H2 -> "MERGE INTO " + this.stats + " s USING (VALUES (CAST(? AS TIMESTAMP WITH TIME ZONE),"
					+ " CAST(? AS VARCHAR(255)), CAST(? AS VARCHAR(64)), CAST(? AS BIGINT), CAST(? AS BIGINT),"
					+ " CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))) v (minute_at, queue, writer, "
					+ STATS_COLUMNS + ") ON s.minute_at = v.minute_at AND s.queue = v.queue AND s.writer = v.writer"
					+ " WHEN MATCHED THEN UPDATE SET"
					+ " completed = s.completed + v.completed, failed = s.failed + v.failed,"
					+ " retried = s.retried + v.retried, dead_lettered = s.dead_lettered + v.dead_lettered,"
					+ " discarded = s.discarded + v.discarded WHEN NOT MATCHED THEN INSERT (minute_at, queue, writer, "
					+ STATS_COLUMNS + ") VALUES (v.minute_at, v.queue, v.writer, v.completed, v.failed, v.retried,"
					+ " v.dead_lettered, v.discarded)";
		};
		// sorted, so concurrent writers lock rows in the same order
		List<StatsBucket> sorted = buckets.stream()
			.sorted((a, b) -> (a.start().equals(b.start())) ? a.queue().compareTo(b.queue())
					: a.start().compareTo(b.start()))
			.toList();
		for (StatsBucket bucket : sorted) {
			this.jdbc.update(sql, (ps) -> {
				this.jobs.setInstant(ps, 1, bucket.start());
				ps.setString(2, bucket.queue());
				ps.setString(3, this.writer);
				ps.setLong(4, bucket.completed());
				ps.setLong(5, bucket.failed());
				ps.setLong(6, bucket.retried());
				ps.setLong(7, bucket.deadLettered());
				ps.setLong(8, bucket.discarded());
			});
		}
	}

	/** Minute rows between {@code since} and {@code until}, of one queue or all, oldest first. */
	List<StatsBucket> minutes(Instant since, Instant until, @Nullable String queue) {
		Where where = new Where();
		where.and("minute_at >= ?", since);
		where.and("minute_at < ?", until);
		where.and("queue = ?", queue);
		return this.jdbc.query("SELECT minute_at, queue, SUM(completed), SUM(failed), SUM(retried),"
				+ " SUM(dead_lettered), SUM(discarded) FROM " + this.stats + where.sql()
				+ " GROUP BY minute_at, queue ORDER BY minute_at, queue", where::bind,
				(rs, rowNum) -> new StatsBucket(this.jobs.getInstant(rs, 1), rs.getString(2), rs.getLong(3),
						rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7)));
	}

	/** Deletes minute rows before {@code cutoff}; returns how many. */
	int deleteStatsBefore(Instant cutoff) {
		return this.jdbc.update("DELETE FROM " + this.stats + " WHERE minute_at < ?",
				(ps) -> this.jobs.setInstant(ps, 1, cutoff));
	}

	// ---- filters

	private Where where(JobQuery query, boolean withCursor) {
		Where where = new Where();
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
		where.and("id = " + this.jobs.idParam(), query.id());
		if (withCursor && query.after() != null) {
			where.add("id " + (query.ascending() ? ">" : "<") + " " + this.jobs.idParam(), query.after().id());
		}
		return where;
	}

	/** A conjunction of conditions and their bound values. */
	private final class Where {

		private final List<String> conditions = new ArrayList<>();

		final List<Object> params = new ArrayList<>();

		void and(String condition, @Nullable Object value) {
			if (value != null) {
				add(condition, value);
			}
		}

		void add(String condition, Object... values) {
			this.conditions.add(condition);
			this.params.addAll(Arrays.asList(values));
		}

		/** Jobs created at or after {@code since}: also a primary-key range, from its millisecond's first id. */
		void createdFrom(@Nullable Instant since) {
			if (since != null) {
				add("created_at >= ?", since);
				add("id >= " + AdminDialect.this.jobs.idParam(), JobIds.first(since));
			}
		}

		/**
		 * Jobs created before {@code until}: also a primary-key range, up to the next
		 * millisecond's first id. Ids made by versions before ids carried {@code created_at}
		 * could be a few milliseconds later than it: such jobs created within those
		 * milliseconds before {@code until} are left out.
		 */
		void createdBefore(@Nullable Instant until) {
			if (until != null) {
				add("created_at < ?", until);
				add("id < " + AdminDialect.this.jobs.idParam(), JobIds.firstAfter(until));
			}
		}

		void in(String column, List<String> values) {
			add(column + " IN (" + JdbcDialect.markers(values.size()) + ")", values.toArray());
		}

		String conditions() {
			return this.conditions.isEmpty() ? "1 = 1" : String.join(" AND ", this.conditions);
		}

		String sql() {
			return this.conditions.isEmpty() ? "" : " WHERE " + conditions();
		}

		void bind(PreparedStatement ps) throws SQLException {
			AdminDialect.this.jobs.bindValues(ps, 1, this.params);
		}

	}

}

package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.ojs.job.Job;

/**
 * Claims on PostgreSQL 13+, one statement each: {@code WITH due AS (SELECT id ... ORDER BY
 * priority DESC, scheduled_at, id LIMIT n FOR UPDATE SKIP LOCKED) UPDATE ... FROM due
 * RETURNING ...}, served by the partial index {@code <prefix>jobs_claim_idx}; under a backlog
 * a claim resumes where the node's previous claim ended ({@link ClaimCursors}).
 */
final class PostgresClaimSql extends ClaimSql {

	private static final String J_COLUMNS = JobRows.COLUMNS.stream().map((column) -> "j." + column)
		.collect(Collectors.joining(", "));

	private static final String CLAIMABLE = JobRows.CLAIMABLE;

	private static final Log logger = LogFactory.getLog(PostgresClaimSql.class);

	private final ClaimCursors cursors = new ClaimCursors();

	PostgresClaimSql(SqlSupport shared, JobRows rows) {
		super(shared, rows);
	}

	/**
	 * Claims in claim order; while the queue has a backlog, from where this node's previous
	 * claim ended (see {@link ClaimCursors}).
	 */
	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now,
			Collection<String> excludedKeys) {
		if (!excludedKeys.isEmpty()) {
			// a claim of a type limited per key: from the front, without keys at their limit
			return claim(nodeId, queue, visibilityByType, limit, now, null, excludedKeys);
		}
		ClaimCursors.Key key = new ClaimCursors.Key(nodeId, queue, visibilityByType.keySet());
		ClaimCursors.Cursor cursor = this.cursors.resumeAt(key, now);
		List<Job> jobs = claim(nodeId, queue, visibilityByType, limit, now, cursor, List.of());
		Instant frontClaimAt = (cursor != null) ? cursor.frontClaimAt() : now;
		if (cursor != null && jobs.size() < limit) {
			// the rest of the cursor's priority is taken: the front fills the remaining slots
			List<Job> front;
			try {
				front = claim(nodeId, queue, visibilityByType, limit - jobs.size(), now, null, List.of());
			}
			catch (RuntimeException ex) {
				this.cursors.forget(key);
				if (jobs.isEmpty()) {
					throw ex;
				}
				// the resumed claim has committed: its jobs are this node's, hand them out
				logger.warn("OJS: claiming queue " + queue + " from the front failed after a resumed claim took "
						+ jobs.size() + " jobs; running those, the next claim starts from the front: " + ex);
				return jobs;
			}
			if (!front.isEmpty()) {
				List<Job> all = new ArrayList<>(jobs);
				all.addAll(front);
				all.sort(JobRows.CLAIM_ORDER);
				jobs = all;
			}
			frontClaimAt = now;
		}
		this.cursors.claimed(key, jobs, limit, frontClaimAt);
		return jobs;
	}

	private List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			Instant now, ClaimCursors.@Nullable Cursor resumeAfter, Collection<String> excludedKeys) {
		String sql = claimSql(visibilityByType, resumeAfter != null, !excludedKeys.isEmpty(), flushFree());
		List<Job> jobs = this.jdbc.query(con -> {
			// a generic plan cached while the table was small joins the claimed ids to a scan of
			// the whole table (57 ms per claim at 180,000 jobs, BENCHMARKS.md)
			PreparedStatement ps = PostgresStatements.customPlans(con.prepareStatement(sql));
			bindClaim(con, ps, nodeId, queue, visibilityByType, limit, now, resumeAfter, excludedKeys);
			return ps;
		}, this.rows.lazily());
		jobs.sort(JobRows.CLAIM_ORDER);
		return jobs;
	}

	/**
	 * Whether this claim's commit may skip waiting for its flush: a claim committing on its
	 * own (not in a limit's or a completion's transaction) unless claims are durable
	 * ({@link JdbcStoreSettings#durableClaims}).
	 */
	boolean flushFree() {
		return !this.settings.durableClaims() && !TransactionSynchronizationManager.hasResource(this.dataSource);
	}

	/** Binds {@link #claimSql}'s parameters. */
	void bindClaim(Connection con, PreparedStatement ps, String nodeId, String queue,
			Map<String, Duration> visibilityByType, int limit, Instant now,
			ClaimCursors.@Nullable Cursor resumeAfter, Collection<String> excludedKeys) throws SQLException {
		int index = 1;
		if (resumeAfter == null) {
			// the queue's priorities
			ps.setString(index++, queue);
			ps.setString(index++, queue);
		}
		ps.setString(index++, queue);
		setInstant(ps, index++, now);
		setInstant(ps, index++, now);
		if (!anyType(visibilityByType)) {
			ps.setArray(index++, con.createArrayOf("text", visibilityByType.keySet().toArray()));
		}
		if (!excludedKeys.isEmpty()) {
			ps.setArray(index++, con.createArrayOf("text", excludedKeys.toArray()));
		}
		if (resumeAfter != null) {
			ps.setInt(index++, resumeAfter.priority());
			setInstant(ps, index++, resumeAfter.scheduledAt());
			ps.setString(index++, resumeAfter.id());
		}
		else {
			// per priority, then in all
			ps.setInt(index++, limit);
		}
		ps.setInt(index++, limit);
		ps.setString(index++, nodeId);
		setInstant(ps, index++, now);
		bindLockedUntil(ps, index, visibilityByType, now);
	}

	/**
	 * The claim. From the front of the queue, a loose index scan of {@code claim_idx}: the
	 * queue's distinct priorities, highest first, each with its first claimable entry (one index
	 * descent each, past the dead entries that claimed jobs leave until a vacuum), then per
	 * priority its due entries from that first one on, a range that {@code scheduled_at <= now}
	 * ends, so jobs scheduled ahead and retries waiting out their backoff are never read (a
	 * single range over the queue would walk all of them, as {@code priority} comes before
	 * {@code scheduled_at}), nor the dead entries a second time. With {@code resume},
	 * only the rest of one priority after a claim-order key
	 * ({@code priority = ? AND (scheduled_at, id) > (?, ?)}, an index range). With
	 * {@code flushFree}, the claim's transaction commits without waiting for the WAL flush
	 * ({@code set_config('synchronous_commit', 'off', true)}, evaluated once).
	 */
	String claimSql(Map<String, Duration> visibilityByType, boolean resume, boolean excludesKeys, boolean flushFree) {
		String due = " state IN (" + CLAIMABLE + ") AND queue = ? AND scheduled_at <= ?" + NOT_EXPIRED
				+ (anyType(visibilityByType) ? "" : " AND type = ANY(?)")
				+ (excludesKeys ? " AND (concurrency_key IS NULL OR concurrency_key <> ALL(?))" : "") + sequenceFilter("c");
		String select = resume
				? "WITH due AS (SELECT id FROM " + this.table + " c WHERE" + due
						+ " AND priority = ? AND (scheduled_at, id) > (?, ?::uuid)"
						+ " ORDER BY priority DESC, scheduled_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
				: "WITH RECURSIVE prio AS ((SELECT priority, scheduled_at, id FROM " + this.table + " WHERE state IN ("
						+ CLAIMABLE + ") AND queue = ? ORDER BY priority DESC, scheduled_at, id LIMIT 1)"
						+ " UNION ALL SELECT n.priority, n.scheduled_at, n.id FROM prio, LATERAL (SELECT p.priority,"
						+ " p.scheduled_at, p.id FROM " + this.table + " p WHERE p.state IN (" + CLAIMABLE + ")"
						+ " AND p.queue = ? AND p.priority < prio.priority ORDER BY p.priority DESC, p.scheduled_at, p.id"
						+ " LIMIT 1) n),"
						+ " due AS (SELECT d.id FROM prio, LATERAL (SELECT id, priority, scheduled_at FROM " + this.table
						+ " c WHERE" + due + " AND priority = prio.priority AND (scheduled_at, id) >= (prio.scheduled_at, prio.id)"
						+ " ORDER BY scheduled_at, id LIMIT ? FOR UPDATE SKIP LOCKED) d"
						+ " ORDER BY d.priority DESC, d.scheduled_at, d.id LIMIT ?)";
		return select + " UPDATE " + this.table + " j SET state = 'active', attempt = j.attempt + 1, locked_by = ?,"
				+ " started_at = ?, locked_until = " + lockedUntilExpression(visibilityByType, "j.type")
				+ " FROM due WHERE j.id = due.id"
				+ (flushFree ? " AND (SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL" : "")
				+ " RETURNING " + J_COLUMNS;
	}

}

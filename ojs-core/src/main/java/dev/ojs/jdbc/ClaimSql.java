package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.Timestamps;
import dev.ojs.worker.WorkerStore;

/**
 * The SQL of claims: each platform takes due jobs its own way ({@link PostgresClaimSql},
 * {@link MariaDbClaimSql}, {@link H2ClaimSql}), from the parts here. Also when a queue's next
 * jobs become due.
 */
abstract class ClaimSql extends SqlSupport {

	/**
	 * A claim's filter on expiry: a job past its {@code expires_at} is never handed out (the
	 * {@code Expirer} discards it); bound to the claim's {@code now}. A filter on the rows the
	 * claim reads anyway, so the claim's plan does not change.
	 */
	static final String NOT_EXPIRED = " AND (expires_at IS NULL OR expires_at > ?)";

	final JobRows rows;

	ClaimSql(SqlSupport shared, JobRows rows) {
		super(shared);
		this.rows = rows;
	}

	/**
	 * Claims up to {@code limit} due jobs of the given types from a queue in claim order
	 * (priority descending, then scheduled time, then id): each claimed job becomes
	 * {@code active}, its attempt is incremented, and it is reserved for {@code nodeId} until
	 * {@code now} plus its type's visibility timeout. Jobs whose {@code concurrency_key} is one
	 * of {@code excludedKeys} are left (those of keys at their limit).
	 */
	abstract List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			Instant now, Collection<String> excludedKeys);

	/**
	 * The earliest {@code limit} distinct {@code scheduled_at} after {@code now} of the
	 * queue's scheduled and retryable jobs, earliest first: one index range per state, each
	 * stopping after {@code limit} rows.
	 */
	List<Instant> nextDueTimes(String queue, Instant now, int limit) {
		String due = "SELECT scheduled_at FROM " + this.table + " WHERE state = ? AND queue = ? AND scheduled_at > ?"
				+ " ORDER BY scheduled_at LIMIT ?";
		List<Instant> times = this.jdbc.query("(" + due + ") UNION ALL (" + due + ")", ps -> {
			int index = 1;
			for (JobState state : List.of(JobState.SCHEDULED, JobState.RETRYABLE)) {
				ps.setString(index++, state.value());
				ps.setString(index++, queue);
				setInstant(ps, index++, now);
				ps.setInt(index++, limit);
			}
		}, (rs, rowNum) -> getInstant(rs, 1));
		return times.stream().sorted().distinct().limit(limit).toList();
	}

	// ---- parts

	/** {@code locked_until} per type: one bind marker, or a CASE over the types. */
	static String lockedUntilExpression(Map<String, Duration> visibilityByType, String typeColumn) {
		if (new HashSet<>(visibilityByType.values()).size() == 1) {
			return "?";
		}
		StringBuilder sql = new StringBuilder("CASE ").append(typeColumn);
		for (int i = 0; i < visibilityByType.size(); i++) {
			sql.append(" WHEN ? THEN ?");
		}
		return sql.append(" END").toString();
	}

	/** Binds {@link #lockedUntilExpression}; returns the next free index. */
	int bindLockedUntil(PreparedStatement ps, int index, Map<String, Duration> visibilityByType, Instant now)
			throws SQLException {
		if (new HashSet<>(visibilityByType.values()).size() == 1) {
			setInstant(ps, index++, Timestamps.plus(now, visibilityByType.values().iterator().next()));
			return index;
		}
		for (Map.Entry<String, Duration> entry : visibilityByType.entrySet()) {
			ps.setString(index++, entry.getKey());
			setInstant(ps, index++, Timestamps.plus(now, entry.getValue()));
		}
		return index;
	}

	/** Whether a claim takes jobs of every type ({@link WorkerStore#ANY_TYPE}). */
	static boolean anyType(Map<String, Duration> visibilityByType) {
		return visibilityByType.size() == 1 && visibilityByType.containsKey(WorkerStore.ANY_TYPE);
	}

	/** The visibility timeout a claim gives a job of {@code type}. */
	static Duration visibility(Map<String, Duration> visibilityByType, String type) {
		Duration visibility = visibilityByType.get(type);
		return (visibility != null) ? visibility : Objects.requireNonNull(visibilityByType.get(WorkerStore.ANY_TYPE));
	}

	/** {@code AND type IN (?, ...)}, or nothing for a claim of every type. */
	static String typeFilter(List<String> types) {
		return types.isEmpty() ? "" : " AND type IN (" + markers(types.size()) + ")";
	}

	/**
	 * Sequences: a job with a {@code sequence_key} is claimable only while no earlier job of its
	 * key (lower id: ids grow in enqueue order) is live or pending, so the jobs of a key run one
	 * at a time in enqueue order, a job's retries holding the ones after it until it ends in a
	 * terminal state. A job without a key costs the claim a {@code NULL} test only; the earlier
	 * jobs of a key are found through {@code sequence_idx}. While no job has a key
	 * ({@link SequenceKeys}), the claim takes none with a key instead, and its SQL has no
	 * subquery to plan. {@code alias} names the claimed table.
	 */
	String sequenceFilter(String alias) {
		if (!this.sequenceKeys.held()) {
			return " AND " + alias + ".sequence_key IS NULL";
		}
		return " AND (" + alias + ".sequence_key IS NULL OR NOT EXISTS (SELECT 1 FROM " + this.table + " s"
				+ " WHERE s.sequence_key = " + alias + ".sequence_key AND s.id < " + alias + ".id"
				+ " AND s.state NOT IN (" + DeleteSql.TERMINAL + ")))";
	}

	/** Leaves the jobs of these concurrency keys out of a claim. */
	static String keyFilter(Collection<String> keys) {
		return keys.isEmpty() ? "" : " AND (concurrency_key IS NULL OR concurrency_key NOT IN (" + markers(keys.size()) + "))";
	}

}

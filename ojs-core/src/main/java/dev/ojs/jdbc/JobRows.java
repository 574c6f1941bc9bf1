package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.retry.RetryPolicy;

/**
 * The rows of the job table as {@link Job}s: the columns every job read selects, in order,
 * the states statements test, and each job's error history, read from the errors table
 * ({@link ErrorSql}) when first used.
 */
final class JobRows extends SqlSupport {

	/**
	 * Column order of the rows {@link #lazily()} and {@link #read} map. The workflow columns
	 * are nullable columns of the row itself, {@code NULL} on a plain job: no join, and a
	 * workflow's advance reads its job's place from here.
	 */
	static final List<String> COLUMNS = List.of("id", "type", "queue", "args", "meta", "priority", "state", "attempt",
			"max_attempts", "retry_policy", "errors", "dead_letter", "unique_key", "scheduled_at", "created_at",
			"enqueued_at", "started_at", "completed_at", "discarded_at", "locked_by", "locked_until", "expires_at",
			"timeout_ms", "visibility_timeout_ms", "workflow_id", "workflow_type", "workflow_role", "workflow_step",
			"parent_results", "sequence_key");

	static final String SELECT_COLUMNS = String.join(", ", COLUMNS);

	/** Claim order: priority descending, then scheduled time, then id (FIFO within a priority). */
	static final Comparator<Job> CLAIM_ORDER = Comparator.comparingInt(Job::priority)
		.reversed()
		.thenComparing(Job::scheduledAt)
		.thenComparing(Job::id);

	/** States a job can be claimed from (once {@code scheduled_at <= now}). */
	static final String CLAIMABLE = "'available', 'scheduled', 'retryable'";

	/** Live (non-terminal) states: at most one job per unique key among them. */
	static final String LIVE = "'scheduled', 'available', 'active', 'retryable'";

	/** Dead letters: discarded jobs marked as such. */
	static final String DEAD_LETTER = "state = 'discarded' AND dead_letter = TRUE";

	private static final int POLICY_CACHE_SIZE = 1024;

	private final ErrorSql errors;

	/** A job read and its history's read see one snapshot. */
	private final TransactionTemplate snapshot;

	private final BoundedCache<String, RetryPolicy> policies = new BoundedCache<>(POLICY_CACHE_SIZE);

	JobRows(SqlSupport shared, ErrorSql errors) {
		super(shared);
		this.errors = errors;
		// H2's REPEATABLE READ lets rows inserted since show (phantoms); its SERIALIZABLE does not
		this.snapshot = transaction(TransactionDefinition.PROPAGATION_REQUIRED,
				(this.platform == JdbcPlatform.H2) ? TransactionDefinition.ISOLATION_SERIALIZABLE
						: TransactionDefinition.ISOLATION_REPEATABLE_READ);
	}

	/**
	 * A mapper of one query's jobs (a claim's, an expiry's) whose error histories are read from
	 * the errors table when first used: the first history used reads those of all the query's
	 * jobs in one statement, so a fetch that answers every job's history costs one read, and a
	 * claim whose handlers need none costs none.
	 */
	RowMapper<Job> lazily() {
		HistoryBatch batch = new HistoryBatch(this.errors);
		Columns columns = columns();
		return (rs, rowNum) -> {
			String id = rs.getString(1);
			batch.add(id);
			return map(rs, columns, () -> batch.rows(id));
		};
	}

	/**
	 * The jobs {@code sql} reads, each with its error history as of this read: the rows of all
	 * of them are read by one more query, in one REPEATABLE READ transaction with the first (the
	 * caller's, if it has one), so a failure committed in between shows in neither or both.
	 */
	List<Job> read(String sql, PreparedStatementSetter params) {
		return Objects.requireNonNull(this.snapshot.execute((status) -> {
			Map<String, List<String>> rows = new HashMap<>();
			Columns columns = columns();
			List<Job> jobs = this.jdbc.query(sql, params, (rs, rowNum) -> {
				String id = rs.getString(1);
				return map(rs, columns, () -> rows.getOrDefault(id, List.of()));
			});
			// decoded when read, from these rows: a snapshot of this read, not a later query
			rows.putAll(this.errors.rows(jobs.stream().map(Job::id).toList()));
			return jobs;
		}));
	}

	private Job map(ResultSet rs, Columns columns, Supplier<List<String>> errorRows) throws SQLException {
		String id = rs.getString(1);
		return new Job(id, columns.text(rs, 2), columns.text(rs, 3), rs.getString(4), columns.text(rs, 5),
				rs.getInt(6), JobState.fromValue(columns.text(rs, 7)), rs.getInt(8), rs.getInt(9),
				policy(columns.text(rs, 10)), ErrorHistoryJson.readLazily(id, columns.text(rs, 11), errorRows),
				rs.getBoolean(12), rs.getString(13), columns.instant(rs, 14), columns.instant(rs, 15),
				columns.instant(rs, 16), columns.instant(rs, 17), columns.instant(rs, 18), columns.instant(rs, 19),
				columns.text(rs, 20), columns.instant(rs, 21),
				columns.instant(rs, 22), millis(rs, 23), millis(rs, 24),
				lowercase(rs.getString(25)), place(rs, 26), rs.getString(29), rs.getString(30));
	}

	/** The job's place in its workflow (type, role, step), or {@code null} for a plain job. */
	private static @Nullable WorkflowPlace place(ResultSet rs, int column) throws SQLException {
		String role = rs.getString(column + 1);
		return (role != null) ? new WorkflowPlace(rs.getString(column), role, rs.getInt(column + 2)) : null;
	}

	/** A duration stored in milliseconds, or {@code null}. */
	private static @Nullable Duration millis(ResultSet rs, int column) throws SQLException {
		long millis = rs.getLong(column);
		return rs.wasNull() ? null : Duration.ofMillis(millis);
	}

	/** An id as read: PostgreSQL's uuid is lowercase already, the others store what was written. */
	private static @Nullable String lowercase(@Nullable String id) {
		return (id != null) ? id.toLowerCase(java.util.Locale.ROOT) : null;
	}

	/** Stored policy fields, validated when written; most rows share a handful, so each is parsed once. */
	RetryPolicy policy(String json) {
		return this.policies.get(json, RetryPolicy::parsePartial);
	}

	/** The job as claimed from {@code row} (read before the claim's UPDATE). */
	static Job claimed(Job row, String nodeId, Instant now, Instant lockedUntil) {
		return new Job(row.id(), row.type(), row.queue(), row.argsJson(), row.metaJson(), row.priority(),
				JobState.ACTIVE, row.attempt() + 1, row.maxAttempts(), row.retryPolicy(), row.errors(),
				row.deadLetter(), row.uniqueKey(), row.scheduledAt(), row.createdAt(), row.enqueuedAt(), now,
				row.completedAt(), row.discardedAt(), nodeId, lockedUntil, row.expiresAt(), row.timeout(),
				row.visibilityTimeout(), row.workflowId(), row.workflowPlace(), row.parentResultsJson(),
				row.sequenceKey());
	}

	/** The job as the expirer left {@code row} (read before its UPDATE). */
	static Job expired(Job row, Instant now) {
		return new Job(row.id(), row.type(), row.queue(), row.argsJson(), row.metaJson(), row.priority(),
				JobState.DISCARDED, row.attempt(), row.maxAttempts(), row.retryPolicy(), row.errors(), false,
				row.uniqueKey(), row.scheduledAt(), row.createdAt(), row.enqueuedAt(), row.startedAt(), null, now, null,
				null, row.expiresAt(), row.timeout(), row.visibilityTimeout(), row.workflowId(), row.workflowPlace(),
				row.parentResultsJson(), row.sequenceKey());
	}

}

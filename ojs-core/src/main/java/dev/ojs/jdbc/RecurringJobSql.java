package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.recurring.OverlapPolicy;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.retry.RetryPolicy;

/**
 * The SQL of recurring jobs' recurring jobs, {@code <prefix>schedules}: a row per recurring job with
 * where its occurrences stand, moved on by compare-and-set.
 */
final class RecurringJobSql extends SqlSupport {

	private static final String COLUMNS = "name, expression, zone, type, args, meta, queue, priority, retry_policy,"
			+ " overlap, enabled, description, application, declared, anchor_at, next_run_at, last_run_at, last_job_id,"
			+ " last_outcome, run_count, queued_runs, created_at, updated_at";

	private final String recurringJobs;

	/** The compare-and-set must see the row as committed by another evaluator meanwhile. */
	private final TransactionTemplate tx;

	RecurringJobSql(SqlSupport shared) {
		super(shared);
		this.recurringJobs = shared.settings.schedulesTableName();
		this.tx = transaction(TransactionDefinition.PROPAGATION_REQUIRED, TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/** Runs {@code work} in a READ COMMITTED transaction (joining the caller's). */
	<T> @Nullable T inTransaction(TransactionCallback<T> work) {
		return this.tx.execute(work);
	}

	List<StoredRecurringJob> findDue(Instant now, int limit) {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.recurringJobs
				+ " WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?", (ps) -> {
					setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, this::map);
	}

	List<StoredRecurringJob> findQueued(int limit) {
		return this.jdbc.query(
				"SELECT " + COLUMNS + " FROM " + this.recurringJobs + " WHERE queued_runs > 0 ORDER BY name LIMIT ?",
				(ps) -> ps.setInt(1, limit), this::map);
	}

	/** The recurring job of this name, or {@code null}. */
	@Nullable StoredRecurringJob find(String name) {
		return find(name, false);
	}

	/** The recurring job of this name, locked until the caller's transaction ends, or {@code null}. */
	@Nullable StoredRecurringJob lock(String name) {
		return find(name, true);
	}

	private @Nullable StoredRecurringJob find(String name, boolean lock) {
		List<StoredRecurringJob> found = this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.recurringJobs
				+ " WHERE name = ?" + (lock ? " FOR UPDATE" : ""), this::map, name);
		return found.isEmpty() ? null : found.get(0);
	}

	List<StoredRecurringJob> findAll() {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.recurringJobs + " ORDER BY name", this::map);
	}

	void insert(StoredRecurringJob stored) {
		String json = jsonParam();
		this.jdbc.update("INSERT INTO " + this.recurringJobs + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, " + json + ", "
				+ json + ", ?, ?, " + json + ", ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (ps) -> bind(ps, stored));
	}

	void update(StoredRecurringJob stored) {
		String json = jsonParam();
		this.jdbc.update("UPDATE " + this.recurringJobs + " SET name = ?, expression = ?, zone = ?, type = ?, args = "
				+ json + ", meta = " + json + ", queue = ?, priority = ?, retry_policy = " + json + ", overlap = ?,"
				+ " enabled = ?, description = ?, application = ?, declared = ?, anchor_at = ?, next_run_at = ?,"
				+ " last_run_at = ?, last_job_id = ?, last_outcome = ?, run_count = ?, queued_runs = ?, created_at = ?,"
				+ " updated_at = ? WHERE name = ?", (ps) -> ps.setString(bind(ps, stored), stored.name()));
	}

	boolean delete(String name) {
		return this.jdbc.update("DELETE FROM " + this.recurringJobs + " WHERE name = ?", name) == 1;
	}

	/**
	 * Moves a recurring job on by one occurrence if it still stands where the caller read it
	 * ({@code next_run_at} and {@code queued_runs}); {@code true} if it did.
	 */
	boolean advance(String name, @Nullable Instant expectedNextRunAt, int expectedQueuedRuns,
			@Nullable Instant nextRunAt, int queuedRuns, Instant lastRunAt, String outcome, boolean counted) {
		return this.jdbc.update("UPDATE " + this.recurringJobs
				+ " SET next_run_at = ?, queued_runs = ?, last_run_at = ?,"
				+ " last_outcome = ?, run_count = run_count + ? WHERE name = ? AND queued_runs = ? AND next_run_at "
				+ ((expectedNextRunAt != null) ? "= ?" : "IS NULL"), (ps) -> {
					setInstant(ps, 1, nextRunAt);
					ps.setInt(2, queuedRuns);
					setInstant(ps, 3, lastRunAt);
					ps.setString(4, outcome);
					ps.setInt(5, counted ? 1 : 0);
					ps.setString(6, name);
					ps.setInt(7, expectedQueuedRuns);
					if (expectedNextRunAt != null) {
						setInstant(ps, 8, expectedNextRunAt);
					}
				}) == 1;
	}

	void setLastJob(String name, String jobId) {
		this.jdbc.update("UPDATE " + this.recurringJobs + " SET last_job_id = ? WHERE name = ?", jobId, name);
	}

	long runCount(String name) {
		Long count = this.jdbc.queryForObject("SELECT run_count FROM " + this.recurringJobs + " WHERE name = ?",
				Long.class, name);
		return (count != null) ? count : 0;
	}

	// ---- rows

	private int bind(PreparedStatement ps, StoredRecurringJob stored) throws SQLException {
		RecurringJobDefinition definition = stored.definition();
		int index = 1;
		ps.setString(index++, definition.name());
		ps.setString(index++, definition.cron());
		ps.setString(index++, definition.zone());
		ps.setString(index++, definition.type());
		ps.setString(index++, definition.argsJson());
		ps.setString(index++, definition.metaJson());
		ps.setString(index++, definition.queue());
		ps.setObject(index++, definition.priority(), java.sql.Types.INTEGER);
		ps.setString(index++, (definition.retry() != null) ? definition.retry().toJson() : "{}");
		ps.setString(index++, definition.overlap().value());
		ps.setBoolean(index++, definition.enabled());
		ps.setString(index++, definition.description());
		ps.setString(index++, definition.application());
		ps.setBoolean(index++, definition.declared());
		setInstant(ps, index++, stored.anchorAt());
		setInstant(ps, index++, stored.nextRunAt());
		setInstant(ps, index++, stored.lastRunAt());
		ps.setString(index++, stored.lastJobId());
		ps.setString(index++, stored.lastOutcome());
		ps.setLong(index++, stored.runCount());
		ps.setInt(index++, stored.queuedRuns());
		setInstant(ps, index++, stored.createdAt());
		setInstant(ps, index++, stored.updatedAt());
		return index;
	}

	private StoredRecurringJob map(ResultSet rs, int rowNum) throws SQLException {
		RetryPolicy retry = RetryPolicy.parsePartial(rs.getString(9));
		int priority = rs.getInt(8);
		Integer boxedPriority = rs.wasNull() ? null : priority;
		RecurringJobDefinition definition = new RecurringJobDefinition(rs.getString(1), rs.getString(2),
				rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), boxedPriority,
				retry.isEmpty() ? null : retry, OverlapPolicy.fromValue(rs.getString(10)), rs.getBoolean(11),
				rs.getString(12), rs.getString(13), rs.getBoolean(14));
		return new StoredRecurringJob(definition, getInstant(rs, 15), getInstant(rs, 16),
				getInstant(rs, 17), rs.getString(18), rs.getString(19), rs.getLong(20), rs.getInt(21),
				getInstant(rs, 22), getInstant(rs, 23));
	}

}

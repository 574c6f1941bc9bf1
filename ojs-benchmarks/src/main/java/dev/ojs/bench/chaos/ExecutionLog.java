package dev.ojs.bench.chaos;

import java.sql.Timestamp;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The harness's side tables in the job database: {@code <prefix>chaos_exec} (one row per
 * handler execution, inserted in its own autocommit statement before the handler works, its
 * end written afterwards) and {@code <prefix>chaos_expected} (the jobs the coordinator
 * enqueued, for inspection after a run). Timestamps come from the database clock, shared by
 * every process.
 */
public final class ExecutionLog {

	private final JdbcTemplate jdbc;

	private final String executions;

	private final String expected;

	public ExecutionLog(JdbcTemplate jdbc, String tablePrefix) {
		this.jdbc = jdbc;
		this.executions = tablePrefix + "chaos_exec";
		this.expected = tablePrefix + "chaos_expected";
	}

	public void createTables() {
		this.jdbc.execute("CREATE TABLE " + this.executions + " (seq bigserial PRIMARY KEY,"
				+ " job_id varchar(64) NOT NULL, attempt int NOT NULL, pid bigint NOT NULL,"
				+ " started_at timestamptz NOT NULL DEFAULT clock_timestamp(), ended_at timestamptz,"
				+ " outcome varchar(16))");
		this.jdbc.execute("CREATE INDEX " + this.executions + "_job ON " + this.executions + " (job_id)");
		this.jdbc.execute("CREATE TABLE " + this.expected + " (job_id varchar(64) PRIMARY KEY,"
				+ " fail_first int NOT NULL, max_attempts int NOT NULL, bad_args boolean NOT NULL)");
	}

	/** Records an execution's start; returns its sequence number. */
	public long started(String jobId, int attempt, long pid) {
		Long seq = this.jdbc.queryForObject(
				"INSERT INTO " + this.executions + " (job_id, attempt, pid) VALUES (?, ?, ?) RETURNING seq", Long.class,
				jobId, attempt, pid);
		return seq;
	}

	public void ended(long seq, String outcome) {
		this.jdbc.update("UPDATE " + this.executions + " SET ended_at = clock_timestamp(), outcome = ? WHERE seq = ?",
				outcome, seq);
	}

	public void expect(List<ExpectedJob> jobs) {
		this.jdbc.batchUpdate(
				"INSERT INTO " + this.expected + " (job_id, fail_first, max_attempts, bad_args) VALUES (?, ?, ?, ?)",
				jobs, 1_000, (statement, job) -> {
					statement.setString(1, job.id());
					statement.setInt(2, job.failFirst());
					statement.setInt(3, job.maxAttempts());
					statement.setBoolean(4, job.badArgs());
				});
	}

	/** Jobs with at least one successful execution. */
	public long succeededJobs() {
		Long count = this.jdbc.queryForObject(
				"SELECT count(DISTINCT job_id) FROM " + this.executions + " WHERE outcome = 'ok'", Long.class);
		return (count != null) ? count : 0;
	}

	public List<Execution> executions() {
		return this.jdbc.query(
				"SELECT seq, job_id, attempt, pid, started_at, ended_at, outcome FROM " + this.executions
						+ " ORDER BY seq",
				(row, n) -> new Execution(row.getLong(1), row.getString(2), row.getInt(3), row.getLong(4),
						row.getTimestamp(5).toInstant(), instant(row.getTimestamp(6)), row.getString(7)));
	}

	/** The database clock now. */
	public java.time.Instant databaseNow() {
		return this.jdbc.queryForObject("SELECT clock_timestamp()", Timestamp.class).toInstant();
	}

	private static java.time.@Nullable Instant instant(@Nullable Timestamp timestamp) {
		return (timestamp != null) ? timestamp.toInstant() : null;
	}

}

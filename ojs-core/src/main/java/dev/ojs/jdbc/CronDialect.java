package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.cron.OverlapPolicy;
import dev.ojs.cron.Schedule;
import dev.ojs.cron.StoredSchedule;
import dev.ojs.retry.RetryPolicy;

/**
 * The SQL of recurring jobs: the {@code <prefix>schedules} and {@code <prefix>leases} tables,
 * on every platform. Values are bound the way the platform's {@link JdbcDialect} binds them;
 * only the database clock's expressions differ per platform.
 */
final class CronDialect {

	/** The evaluator's row in the lease table. */
	static final String EVALUATOR_LEASE = "cron-evaluator";

	private static final String COLUMNS = "name, expression, zone, type, args, meta, queue, priority, retry_policy,"
			+ " overlap, enabled, description, application, declared, anchor_at, next_run_at, last_run_at, last_job_id,"
			+ " last_outcome, run_count, queued_runs, created_at, updated_at";

	private final JdbcDialect jobs;

	private final JdbcTemplate jdbc;

	private final String schedules;

	private final String leases;

	CronDialect(JdbcDialect jobs, JdbcStoreSettings settings) {
		this.jobs = jobs;
		this.jdbc = jobs.jdbc;
		this.schedules = settings.schedulesTableName();
		this.leases = settings.leasesTableName();
	}

	// ---- lease, on the database clock

	/**
	 * The database's current time. The lease is the one place that reads it: the nodes that
	 * compete for the lease may disagree about the time, the database they share orders them.
	 */
	private String dbNow() {
		return switch (this.jobs.platform) {
			case POSTGRESQL -> "now()";
			case MARIADB, MYSQL -> "UTC_TIMESTAMP(6)";
			case H2 -> "CURRENT_TIMESTAMP(6)";
		};
	}

	/** The database's current time plus {@code ?} microseconds. */
	private String dbNowPlusMicros() {
		return switch (this.jobs.platform) {
			case POSTGRESQL -> "now() + make_interval(secs => ? / 1000000.0)";
			case MARIADB, MYSQL -> "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))";
			case H2 -> "DATEADD(MICROSECOND, ?, CURRENT_TIMESTAMP(6))";
		};
	}

	/** Extends the lease while {@code holder} holds it or it expired; {@code true} if it did. */
	boolean renewLease(String holder, Duration ttl) {
		return this.jdbc.update("UPDATE " + this.leases + " SET holder = ?, expires_at = " + dbNowPlusMicros()
				+ " WHERE name = ? AND (holder = ? OR expires_at < " + dbNow() + ")", (ps) -> {
					ps.setString(1, holder);
					ps.setLong(2, ttl.toNanos() / 1000);
					ps.setString(3, EVALUATOR_LEASE);
					ps.setString(4, holder);
				}) == 1;
	}

	/** Creates the lease row for {@code holder}; throws a duplicate key error when it exists. */
	void insertLease(String holder, Duration ttl) {
		this.jdbc.update("INSERT INTO " + this.leases + " (name, holder, expires_at) VALUES (?, ?, "
				+ dbNowPlusMicros() + ")", (ps) -> {
					ps.setString(1, EVALUATOR_LEASE);
					ps.setString(2, holder);
					ps.setLong(3, ttl.toNanos() / 1000);
				});
	}

	void releaseLease(String holder) {
		this.jdbc.update("DELETE FROM " + this.leases + " WHERE name = ? AND holder = ?", EVALUATOR_LEASE, holder);
	}

	@Nullable String leaseHolder() {
		List<String> holders = this.jdbc.queryForList(
				"SELECT holder FROM " + this.leases + " WHERE name = ? AND expires_at > " + dbNow(), String.class,
				EVALUATOR_LEASE);
		return holders.isEmpty() ? null : holders.get(0);
	}

	// ---- schedules

	List<StoredSchedule> findDue(Instant now, int limit) {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.schedules
				+ " WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?", (ps) -> {
					this.jobs.setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, this::map);
	}

	List<StoredSchedule> findQueued(int limit) {
		return this.jdbc.query(
				"SELECT " + COLUMNS + " FROM " + this.schedules + " WHERE queued_runs > 0 ORDER BY name LIMIT ?",
				(ps) -> ps.setInt(1, limit), this::map);
	}

	/** The schedule of this name, read with {@code suffix} ({@code ""}, or {@code " FOR UPDATE"}). */
	@Nullable StoredSchedule find(String name, String suffix) {
		List<StoredSchedule> found = this.jdbc.query(
				"SELECT " + COLUMNS + " FROM " + this.schedules + " WHERE name = ?" + suffix, this::map, name);
		return found.isEmpty() ? null : found.get(0);
	}

	List<StoredSchedule> findAll() {
		return this.jdbc.query("SELECT " + COLUMNS + " FROM " + this.schedules + " ORDER BY name", this::map);
	}

	void insert(StoredSchedule stored) {
		String json = this.jobs.jsonParam();
		this.jdbc.update("INSERT INTO " + this.schedules + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, " + json + ", "
				+ json + ", ?, ?, " + json + ", ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (ps) -> bind(ps, stored));
	}

	void update(StoredSchedule stored) {
		String json = this.jobs.jsonParam();
		this.jdbc.update("UPDATE " + this.schedules + " SET name = ?, expression = ?, zone = ?, type = ?, args = "
				+ json + ", meta = " + json + ", queue = ?, priority = ?, retry_policy = " + json + ", overlap = ?,"
				+ " enabled = ?, description = ?, application = ?, declared = ?, anchor_at = ?, next_run_at = ?,"
				+ " last_run_at = ?, last_job_id = ?, last_outcome = ?, run_count = ?, queued_runs = ?, created_at = ?,"
				+ " updated_at = ? WHERE name = ?", (ps) -> ps.setString(bind(ps, stored), stored.name()));
	}

	boolean delete(String name) {
		return this.jdbc.update("DELETE FROM " + this.schedules + " WHERE name = ?", name) == 1;
	}

	/**
	 * Moves a schedule on by one tick if it still stands where the caller read it
	 * ({@code next_run_at} and {@code queued_runs}); {@code true} if it did.
	 */
	boolean advance(String name, @Nullable Instant expectedNextRunAt, int expectedQueuedRuns,
			@Nullable Instant nextRunAt, int queuedRuns, Instant lastRunAt, String outcome, boolean counted) {
		return this.jdbc.update("UPDATE " + this.schedules + " SET next_run_at = ?, queued_runs = ?, last_run_at = ?,"
				+ " last_outcome = ?, run_count = run_count + ? WHERE name = ? AND queued_runs = ? AND next_run_at "
				+ ((expectedNextRunAt != null) ? "= ?" : "IS NULL"), (ps) -> {
					this.jobs.setInstant(ps, 1, nextRunAt);
					ps.setInt(2, queuedRuns);
					this.jobs.setInstant(ps, 3, lastRunAt);
					ps.setString(4, outcome);
					ps.setInt(5, counted ? 1 : 0);
					ps.setString(6, name);
					ps.setInt(7, expectedQueuedRuns);
					if (expectedNextRunAt != null) {
						this.jobs.setInstant(ps, 8, expectedNextRunAt);
					}
				}) == 1;
	}

	void setLastJob(String name, String jobId) {
		this.jdbc.update("UPDATE " + this.schedules + " SET last_job_id = ? WHERE name = ?", jobId, name);
	}

	long runCount(String name) {
		Long count = this.jdbc.queryForObject("SELECT run_count FROM " + this.schedules + " WHERE name = ?",
				Long.class, name);
		return (count != null) ? count : 0;
	}

	/** The state of a job, or {@code null} when there is none. */
	@Nullable String jobState(String id) {
		List<String> states = this.jdbc.queryForList(
				"SELECT state FROM " + this.jobs.table + " WHERE id = " + this.jobs.idParam(), String.class, id);
		return states.isEmpty() ? null : states.get(0);
	}

	// ---- rows

	private int bind(PreparedStatement ps, StoredSchedule stored) throws SQLException {
		Schedule schedule = stored.schedule();
		int index = 1;
		ps.setString(index++, schedule.name());
		ps.setString(index++, schedule.cron());
		ps.setString(index++, schedule.zone());
		ps.setString(index++, schedule.type());
		ps.setString(index++, schedule.argsJson());
		ps.setString(index++, schedule.metaJson());
		ps.setString(index++, schedule.queue());
		ps.setObject(index++, schedule.priority(), java.sql.Types.INTEGER);
		ps.setString(index++, (schedule.retry() != null) ? schedule.retry().toJson() : "{}");
		ps.setString(index++, schedule.overlap().value());
		ps.setBoolean(index++, schedule.enabled());
		ps.setString(index++, schedule.description());
		ps.setString(index++, schedule.application());
		ps.setBoolean(index++, schedule.declared());
		this.jobs.setInstant(ps, index++, stored.anchorAt());
		this.jobs.setInstant(ps, index++, stored.nextRunAt());
		this.jobs.setInstant(ps, index++, stored.lastRunAt());
		ps.setString(index++, stored.lastJobId());
		ps.setString(index++, stored.lastOutcome());
		ps.setLong(index++, stored.runCount());
		ps.setInt(index++, stored.queuedRuns());
		this.jobs.setInstant(ps, index++, stored.createdAt());
		this.jobs.setInstant(ps, index++, stored.updatedAt());
		return index;
	}

	private StoredSchedule map(ResultSet rs, int rowNum) throws SQLException {
		RetryPolicy retry = RetryPolicy.parsePartial(rs.getString(9));
		int priority = rs.getInt(8);
		Integer boxedPriority = rs.wasNull() ? null : priority;
		Schedule schedule = new Schedule(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
				rs.getString(5), rs.getString(6), rs.getString(7), boxedPriority, retry.isEmpty() ? null : retry,
				OverlapPolicy.fromValue(rs.getString(10)), rs.getBoolean(11), rs.getString(12), rs.getString(13),
				rs.getBoolean(14));
		return new StoredSchedule(schedule, this.jobs.getInstant(rs, 15), this.jobs.getInstant(rs, 16),
				this.jobs.getInstant(rs, 17), rs.getString(18), rs.getString(19), rs.getLong(20), rs.getInt(21),
				this.jobs.getInstant(rs, 22), this.jobs.getInstant(rs, 23));
	}

}

package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.PreparedStatementCreator;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;

import static dev.ojs.jdbc.PostgresStatements.customPlans;
import static dev.ojs.jdbc.PostgresStatements.setTexts;
import static dev.ojs.jdbc.PostgresStatements.timestamptz;

/**
 * Attempt outcomes on PostgreSQL: the completions, failures and releases of a whole batch
 * are one {@code UPDATE}/{@code DELETE} joined to {@code unnest(...)} of per-row arrays (id,
 * attempt, owner, new values), guarded per row and {@code RETURNING} the ids written; a
 * failure's error history, and a completion's statistics, are written by the same statement.
 */
final class PostgresOutcomeSql extends OutcomeSql {

	/** {@code 'active'} as a value the planner does not know: see {@link #GUARD}. */
	private static final String ACTIVE = "(SELECT 'active')";

	/**
	 * Guard of a write joined to {@code unnest(ids, attempts, owners) AS c}.
	 * <p>
	 * Plans: these writes touch a batch of rows by primary key, and must do so whatever the
	 * table's statistics say (none at all on a new table, or on a server that never analyzes
	 * it) and however many jobs are active. The join {@code j.id = c.id} is the only access
	 * path offered: a nested loop from the batch into the primary key (or, on a small table,
	 * a hash join), O(batch). Two traps are avoided on purpose:
	 * <ul>
	 * <li>the state check compares with a value the planner does not know,
	 * {@code j.state = (SELECT 'active')}: it matches no partial index's predicate (with
	 * {@code <prefix>jobs_locked_idx}, {@code WHERE state = 'active'}, the planner may scan every
	 * active job for each row of the batch), and its selectivity comes from the number of
	 * states, not from how often the statistics saw {@code active}. Statistics taken while no
	 * job was active estimated one active job, and the planner read the whole table once per
	 * row of the batch: 5.2 s instead of 15 ms for 1,000 completions among 30,000 active
	 * jobs;</li>
	 * <li>no separate {@code j.id = ANY(ids)}: with it, the planner scans the primary key for
	 * the batch and then re-reads the whole {@code unnest} for every row found (a join filter,
	 * O(batch&sup2;): 8.7 ms instead of 2.2 ms for 100 completions).</li>
	 * </ul>
	 * The statements also run with custom plans only ({@link PostgresStatements#customPlans}),
	 * never a generic plan cached while the table was empty.
	 */
	private static final String GUARD = " WHERE j.id = c.id AND j.attempt = c.attempt"
			+ " AND j.state = " + ACTIVE + " AND j.locked_by = c.owner";

	private static final String ATTEMPTS = "unnest(?::uuid[], ?::int[], ?::text[])";

	private final String completeSql;

	private final String deleteSql;

	/** {@link #completeSql} that also counts the jobs in the statistics. */
	private final String completeCountedSql;

	/** {@link #deleteSql} that also counts the jobs in the statistics. */
	private final String deleteCountedSql;

	private final String failSql;

	/** {@link #failSql} while the reservation is still expired (the rescuer's). */
	private final String failExpiredSql;

	private final String releaseSql;

	private final String heartbeatSql;

	PostgresOutcomeSql(SqlSupport shared, JobRows rows, ErrorSql errors, ResultSql results, StatsSql stats,
			WorkflowSql workflows) {
		super(shared, rows, errors, results, stats, workflows);
		this.completeSql = completing(false);
		this.deleteSql = deleting(false);
		this.completeCountedSql = completing(true);
		this.deleteCountedSql = deleting(true);
		this.failSql = failSql("");
		this.failExpiredSql = failSql(" AND j.locked_until < ?");
		this.releaseSql = "UPDATE " + this.table + " j SET state = 'available', attempt = j.attempt - 1,"
				+ " locked_by = NULL, locked_until = NULL, started_at = NULL FROM " + ATTEMPTS
				+ " AS c(id, attempt, owner)" + GUARD + " RETURNING j.id";
		// same plan concerns as GUARD
		this.heartbeatSql = "UPDATE " + this.table
				+ " SET locked_until = " + cappedLockedUntil()
				+ " WHERE id = ANY(?::uuid[]) AND state = " + ACTIVE + " AND locked_by = ?";
	}

	/** The guarded update of each job to {@code completed}, {@code counted} in the statistics by the same statement. */
	private String completing(boolean counted) {
		return "WITH d AS (UPDATE " + this.table + " j SET state = 'completed', completed_at = ?, locked_until = NULL"
				+ " FROM " + ATTEMPTS + " AS c(id, attempt, owner)" + GUARD + " RETURNING j.id, j.queue)"
				+ (counted ? ", s AS (" + this.stats.addCompletedOf("d") + ")" : "") + " SELECT id FROM d";
	}

	/** The guarded delete of each job with its error history, {@code counted} as completed by the same statement. */
	private String deleting(boolean counted) {
		return "WITH d AS (DELETE FROM " + this.table + " j USING " + ATTEMPTS + " AS c(id, attempt, owner)" + GUARD
				+ " RETURNING j.id, j.queue), e AS (" + this.errors.deleteOf("d") + ")"
				+ (counted ? ", s AS (" + this.stats.addCompletedOf("d") + ")" : "") + " SELECT id FROM d";
	}

	/**
	 * One statement: the guarded update of each job, the append of its error to its history,
	 * and, past the history's limit, the removal of the entries of attempts it no longer keeps.
	 */
	private String failSql(String alsoGuard) {
		return "WITH f AS (UPDATE " + this.table + " j SET state = c.state, scheduled_at = c.scheduled_at,"
				+ " last_error_type = c.error_type, dead_letter = c.dead_letter,"
				+ " discarded_at = c.discarded_at, completed_at = c.discarded_at, locked_until = NULL"
				+ " FROM unnest(?::uuid[], ?::int[], ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::text[], ?::text[],"
				+ " ?::int[], ?::boolean[], ?::timestamptz[])"
				+ " AS c(id, attempt, owner, state, scheduled_at, error_attempt, error, error_type, keep_from,"
				+ " dead_letter, discarded_at)" + GUARD + alsoGuard
				+ " RETURNING j.id, c.error_attempt, c.error, c.keep_from), e AS (" + this.errors.appendFrom("f") + "),"
				+ " t AS (" + this.errors.trimFrom("f") + ") SELECT id FROM f";
	}

	@Override
	Set<String> writeCompleted(List<Job> jobs, Instant now, boolean delete) {
		return writeCompleted(jobs, now, delete, false);
	}

	/** One statement writes and counts the jobs. */
	@Override
	Set<String> writeCompletedAndCount(List<Job> jobs, Instant now, boolean delete) {
		return writeCompleted(jobs, now, delete, true);
	}

	private Set<String> writeCompleted(List<Job> jobs, Instant now, boolean delete, boolean counted) {
		String sql = counted ? (delete ? this.deleteCountedSql : this.completeCountedSql)
				: (delete ? this.deleteSql : this.completeSql);
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(sql));
			int index = 1;
			if (!delete) {
				setInstant(ps, index++, now);
			}
			index = bindAttempts(con, ps, index, jobs, Function.identity());
			if (counted) {
				this.stats.bindCompletedOf(ps, index, now);
			}
			return ps;
		});
	}

	@Override
	Set<String> writeFailed(List<AttemptFailure> failures, @Nullable Instant expiredBefore) {
		String sql = (expiredBefore != null) ? this.failExpiredSql : this.failSql;
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(sql));
			int index = bindAttempts(con, ps, 1, failures, AttemptFailure::job);
			setTexts(ps, index++, failures, (failure) -> failure.storedState().value());
			setTexts(ps, index++, failures, (failure) -> timestamptz(failure.scheduledAt()));
			ps.setArray(index++, con.createArrayOf("int4", failures.stream()
				.map((failure) -> (failure.error() != null) ? failure.error().attempt() : null)
				.toArray()));
			setTexts(ps, index++, failures,
					(failure) -> (failure.error() != null) ? ErrorHistoryJson.writeEntry(failure.error()) : null);
			setTexts(ps, index++, failures, OutcomeSql::lastErrorType);
			ps.setArray(index++, con.createArrayOf("int4", failures.stream().map(AttemptFailure::oldestAttemptKept).toArray()));
			ps.setArray(index++, con.createArrayOf("bool", failures.stream().map(AttemptFailure::deadLetter).toArray()));
			setTexts(ps, index++, failures, (failure) -> timestamptz(failure.discardedAt()));
			if (expiredBefore != null) {
				setInstant(ps, index, expiredBefore);
			}
			return ps;
		});
	}

	@Override
	Set<String> release(List<Job> jobs) {
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(this.releaseSql));
			bindAttempts(con, ps, 1, jobs, Function.identity());
			return ps;
		});
	}

	@Override
	int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		return this.jdbc.update(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(this.heartbeatSql));
			setInstant(ps, 1, lockedUntil);
			setInstant(ps, 2, lockedUntil);
			ps.setArray(3, con.createArrayOf("text", ids.toArray()));
			ps.setString(4, nodeId);
			return ps;
		});
	}

	/** Jobs waiting to run that expired by {@code ?}; the partial index {@code <prefix>jobs_expires_idx} holds only those. */
	@Override
	String expiredPredicate() {
		return "expires_at IS NOT NULL AND expires_at <= ? AND state IN (" + EXPIRABLE + ")";
	}

	@Override
	String expiryOrder() {
		return "expires_at";
	}

	/** Binds the {@code unnest(ids, attempts, owners)} of a guarded batch write. */
	private static <T> int bindAttempts(Connection con, PreparedStatement ps, int index, List<T> items,
			Function<T, Job> job) throws SQLException {
		setTexts(ps, index++, items, (item) -> job.apply(item).id());
		ps.setArray(index++, con.createArrayOf("int4", items.stream().map((item) -> job.apply(item).attempt()).toArray()));
		setTexts(ps, index++, items, (item) -> job.apply(item).lockedBy());
		return index;
	}

	private Set<String> returningIds(PreparedStatementCreator statement) {
		return new HashSet<>(this.jdbc.query(statement, (rs, rowNum) -> rs.getString(1)));
	}

}

package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

/**
 * The SQL of attempt outcomes on claimed jobs: complete, fail (retry, discard, dead letter),
 * release, heartbeat, the rescue of expired reservations, and the discard of jobs that expired
 * before they ran. Outcomes are written in one transaction with their statistics
 * ({@link StatsSql}).
 * <p>
 * Every write to a claimed job is guarded by the job's id, its attempt number, state
 * {@code active} and the reservation owner, so a late write from a node whose reservation
 * was reaped changes nothing (and is reported as rejected). Here as per-row batches
 * ({@link GuardedBatch}); {@link PostgresOutcomeSql} writes each batch in one statement.
 */
class OutcomeSql extends SqlSupport {

	/** States whose jobs expire once {@code expires_at} passes: those still waiting to run. */
	static final String EXPIRABLE = "'scheduled', 'available', 'retryable', 'pending'";

	final JobRows rows;

	final ErrorSql errors;

	private final ResultSql results;

	final StatsSql stats;

	private final WorkflowSql workflows;

	private final GuardedBatch batch;

	/** Worker-side transactions: always new, READ COMMITTED. */
	private final TransactionTemplate workerTx;

	private final String guard;

	/**
	 * Told, in the transaction that ends them, of the active jobs an outcome ended: a lazy
	 * stream, read only where a limited queue needs it.
	 */
	private Consumer<Stream<Job>> activeEnded = (jobs) -> {
	};

	OutcomeSql(SqlSupport shared, JobRows rows, ErrorSql errors, ResultSql results, StatsSql stats,
			WorkflowSql workflows) {
		super(shared);
		this.workflows = workflows;
		this.rows = rows;
		this.errors = errors;
		this.results = results;
		this.stats = stats;
		this.batch = new GuardedBatch(shared);
		this.workerTx = workerTransaction();
		this.guard = " WHERE id = " + idParam() + " AND attempt = ? AND state = 'active' AND locked_by = ?";
	}

	/** Has {@code activeEnded} told, in their transaction, of the active jobs each outcome ends. */
	final void onActiveEnded(Consumer<Stream<Job>> activeEnded) {
		this.activeEnded = activeEnded;
	}

	// ---- outcomes and their statistics, in one transaction

	/**
	 * Marks claimed jobs completed (or deletes them, with their error history), stores the
	 * results of those that have one (by job id; only then a statement more), and counts
	 * them in their queues' current minute, then gives {@code then} the jobs completed (which
	 * frees their slots and claims the refills', answering the jobs they took) in the same
	 * transaction; returns the ids actually written.
	 */
	final Set<String> complete(List<Job> jobs, Map<String, String> results, Instant now, boolean delete,
			Function<List<Job>, List<Job>> then) {
		Set<String> claimedHere = new HashSet<>();
		return this.workerTx.execute((status) -> {
			List<Job> steps = jobs.stream().filter((job) -> job.workflowId() != null).toList();
			Set<String> written;
			if (steps.isEmpty()) {
				written = writeCompletedAndCount(jobs, now, delete);
			}
			else {
				// the jobs of workflows are kept: their results go to later steps and callbacks
				written = new HashSet<>(writeCompleted(jobs.stream().filter((job) -> job.workflowId() == null).toList(),
						now, delete));
				written.addAll(writeCompleted(steps, now, false));
			}
			Map<String, String> kept = new HashMap<>(results);
			kept.keySet().retainAll(written);
			if (delete) {
				kept.keySet().retainAll(steps.stream().map(Job::id).toList());
			}
			this.results.write(kept);
			if (!steps.isEmpty()) {
				this.workflows.advance(steps.stream()
					.filter((job) -> written.contains(job.id()))
					.map((job) -> new WorkflowSql.Ended(job, true))
					.toList(), kept, now, () -> claimedHere);
			}
			if (!steps.isEmpty()) {
				this.stats.add(OutcomeCounts.completed(jobs, written, now));
			}
			// the limited queues' rows last: claims take turns on them until this commits; as
			// many ids written as jobs means every job was written
			then.apply((written.size() == jobs.size()) ? jobs
					: jobs.stream().filter((job) -> written.contains(job.id())).toList())
				.forEach((job) -> claimedHere.add(job.id().toLowerCase(Locale.ROOT)));
			return written;
		});
	}

	/** Records failed attempts, and counts them in their queues' minutes; returns the ids actually written. */
	final Set<String> fail(List<AttemptFailure> failures) {
		return this.workerTx.execute((status) -> {
			Set<String> written = writeFailed(failures, null);
			advanceEnded(failures, written);
			this.stats.add(OutcomeCounts.failed(failures, written));
			this.activeEnded.accept(writtenJobs(failures, written));
			return written;
		});
	}

	/**
	 * Locks up to {@code limit} active jobs whose reservation expired before {@code now}
	 * (skipping those another rescuer holds), records the failure {@code decide} makes of
	 * each while the reservation is still expired, and counts them; returns those written.
	 */
	final List<AttemptFailure> reapExpired(Instant now, int limit, Function<Job, AttemptFailure> decide) {
		if (!anyExpired(now)) {
			// the common case, twice a second on every node: a read that locks nothing, so a
			// claim's SKIP LOCKED never passes over a row this scan touched
			return List.of();
		}
		return this.workerTx.execute((status) -> {
			List<Job> expired = findExpired(now, limit);
			if (expired.isEmpty()) {
				return List.<AttemptFailure>of();
			}
			List<AttemptFailure> failures = expired.stream().map(decide).toList();
			Set<String> written = writeFailed(failures, now);
			advanceEnded(failures, written);
			this.stats.add(OutcomeCounts.failed(failures, written));
			// the limited queues' rows last, after the statistics' as every outcome locks them
			this.activeEnded.accept(writtenJobs(failures, written));
			return failures.stream().filter((failure) -> written.contains(failure.job().id())).toList();
		});
	}

	/**
	 * Discards up to {@code limit} jobs still waiting to run whose {@code expires_at} is at or
	 * before {@code now}, earliest expiry first: the rows are locked (skipping those a claim or
	 * another expirer holds) and become {@code discarded} with {@code discarded_at = now}, no
	 * error entry and no dead letter; they count as discarded.
	 * @return the jobs discarded, as they are now
	 */
	final List<Job> expire(Instant now, int limit) {
		return this.workerTx.execute((status) -> {
			List<Job> expired = discardExpired(now, limit);
			if (!expired.isEmpty()) {
				List<WorkflowSql.Ended> steps = expired.stream()
					.filter((job) -> job.workflowId() != null)
					.map((job) -> new WorkflowSql.Ended(job, false))
					.toList();
				if (!steps.isEmpty()) {
					this.workflows.advance(steps, Map.of(), now);
				}
				this.stats.add(OutcomeCounts.expired(expired, now));
			}
			return expired;
		});
	}

	private static Stream<Job> writtenJobs(List<AttemptFailure> failures, Set<String> written) {
		return failures.stream().map(AttemptFailure::job).filter((job) -> written.contains(job.id()));
	}

	/** Advances the workflows of the written failures that ended their jobs (not those to retry). */
	private void advanceEnded(List<AttemptFailure> failures, Set<String> written) {
		List<WorkflowSql.Ended> ended = failures.stream()
			.filter((failure) -> failure.job().workflowId() != null && failure.storedState().isTerminal()
					&& written.contains(failure.job().id()))
			.map((failure) -> new WorkflowSql.Ended(failure.job(), false))
			.toList();
		if (!ended.isEmpty()) {
			this.workflows.advance(ended, Map.of(), failures.get(0).failedAt());
		}
	}

	// ---- the writes

	/**
	 * {@link #writeCompleted}, then counts the jobs written in their queues' current minute.
	 * Only for a batch without jobs of workflows: every outcome locks the workflows' rows
	 * before the statistics' rows.
	 */
	Set<String> writeCompletedAndCount(List<Job> jobs, Instant now, boolean delete) {
		Set<String> written = writeCompleted(jobs, now, delete);
		this.stats.add(OutcomeCounts.completed(jobs, written, now));
		return written;
	}

	/** Marks claimed jobs completed (or deletes them, with their error history); returns the ids actually written. */
	Set<String> writeCompleted(List<Job> jobs, Instant now, boolean delete) {
		if (delete) {
			return this.batch.write(jobs, Function.identity(), "DELETE FROM " + this.table + this.guard, null,
					(ps, job) -> bindGuard(ps, 1, job), (deleted) -> {
						for (List<String> chunk : chunks(new ArrayList<>(deleted), CHUNK)) {
							this.errors.deleteOfDeleted(chunk);
						}
					});
		}
		String sql = "UPDATE " + this.table + " SET state = 'completed', completed_at = ?, locked_until = NULL"
				+ this.guard;
		return this.batch.write(jobs, Function.identity(), sql, null, (ps, job) -> {
			setInstant(ps, 1, now);
			bindGuard(ps, 2, job);
		}, GuardedBatch.NOTHING_MORE);
	}

	/**
	 * Records failed attempts; returns the ids actually written. With {@code expiredBefore}
	 * (the rescuer) a failure is only written while the reservation is still expired, so a
	 * heartbeat that just extended it wins.
	 */
	Set<String> writeFailed(List<AttemptFailure> failures, @Nullable Instant expiredBefore) {
		String sql = "UPDATE " + this.table + " SET state = ?, scheduled_at = ?, last_error_type = ?, dead_letter = ?,"
				+ " discarded_at = ?, completed_at = ?, locked_until = NULL" + this.guard
				+ ((expiredBefore != null) ? " AND locked_until < ?" : "");
		return this.batch.write(failures, AttemptFailure::job, sql, expiredBefore, (ps, failure) -> {
			ps.setString(1, failure.storedState().value());
			setInstant(ps, 2, failure.scheduledAt());
			ps.setString(3, lastErrorType(failure));
			ps.setBoolean(4, failure.deadLetter());
			setInstant(ps, 5, failure.discardedAt());
			// a job that ran and ended is completed at its end, whatever its outcome
			setInstant(ps, 6, failure.discardedAt());
			int index = bindGuard(ps, 7, failure.job());
			if (expiredBefore != null) {
				setInstant(ps, index, expiredBefore);
			}
		}, (written) -> this.errors
			.append(failures.stream().filter((failure) -> written.contains(failure.job().id())).toList()));
	}

	private int bindGuard(PreparedStatement ps, int index, Job job) throws SQLException {
		ps.setString(index++, job.id());
		ps.setInt(index++, job.attempt());
		ps.setString(index++, job.lockedBy());
		return index;
	}

	/**
	 * The stored {@code last_error_type}, cut to the column's length: the error that
	 * discarded the job, which dead letter statistics and filters read. A retryable job
	 * stores none (its history has the error): the column would otherwise be copied into
	 * every later version of its row.
	 */
	static @Nullable String lastErrorType(AttemptFailure failure) {
		ErrorEntry error = failure.error();
		return (failure.state() != JobState.DISCARDED || error == null) ? null
				: ErrorHistoryJson.errorType(error.type());
	}

	/** Returns claimed jobs that never started to {@code available}, without the attempt. */
	Set<String> release(List<Job> jobs) {
		String sql = "UPDATE " + this.table + " SET state = 'available', attempt = attempt - 1, locked_by = NULL, "
				+ "locked_until = NULL, started_at = NULL" + this.guard;
		return this.batch.write(jobs, Function.identity(), sql, null, (ps, job) -> bindGuard(ps, 1, job),
				GuardedBatch.NOTHING_MORE);
	}

	/** Sets the reservations of just-claimed jobs to their {@link Job#lockedUntil()}, guarded as outcomes are. */
	final void reserve(List<Job> jobs) {
		this.jdbc.batchUpdate("UPDATE " + this.table + " SET locked_until = ?" + this.guard, jobs, CHUNK,
				(ps, job) -> {
					setInstant(ps, 1, job.lockedUntil());
					bindGuard(ps, 2, job);
				});
	}

	/**
	 * {@code locked_until} of a heartbeat to {@code ?} (bound twice), or the job's execution
	 * deadline ({@code started_at + timeout_ms}) when that comes first.
	 */
	final String cappedLockedUntil() {
		String deadline = plusMillis("started_at", "timeout_ms");
		return "CASE WHEN timeout_ms IS NOT NULL AND " + deadline + " < ? THEN " + deadline + " ELSE ? END";
	}

	/** Extends the reservations {@code nodeId} holds on these jobs; returns how many it still held. */
	int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		int extended = 0;
		for (List<String> chunk : chunks(ids, CHUNK)) {
			extended += this.jdbc.update("UPDATE " + this.table + " SET locked_until = " + cappedLockedUntil()
					+ " WHERE id IN (" + idMarkers(chunk.size()) + ") AND state = 'active' AND locked_by = ?", ps -> {
						setInstant(ps, 1, lockedUntil);
						setInstant(ps, 2, lockedUntil);
						int index = 3;
						for (String id : chunk) {
							ps.setString(index++, id);
						}
						ps.setString(index, nodeId);
					});
		}
		return extended;
	}

	// ---- reads of claimed jobs

	/** The ids of these claimed jobs that were cancelled. */
	final Set<String> cancelled(List<Job> jobs) {
		Set<String> cancelled = new HashSet<>();
		for (List<Job> chunk : chunks(jobs, CHUNK)) {
			this.jdbc.query("SELECT id FROM " + this.table + " WHERE id IN (" + idMarkers(chunk.size())
					+ ") AND state = 'cancelled'", (ps) -> {
						int index = 1;
						for (Job job : chunk) {
							ps.setString(index++, job.id());
						}
					}, (rs) -> {
						cancelled.add(rs.getString(1).toLowerCase(Locale.ROOT));
					});
		}
		return cancelled;
	}

	/** Those of these claimed jobs whose reservation is still theirs: active, same attempt and owner. */
	final List<Job> reservationsHeld(List<Job> jobs) {
		List<Job> held = new ArrayList<>();
		for (List<Job> chunk : chunks(jobs, CHUNK)) {
			held.addAll(this.batch.held(chunk, null, false));
		}
		return held;
	}

	// ---- rescue and expiry

	/**
	 * Active jobs whose reservation expired before {@code now}, oldest expiry first, locked
	 * for the caller's transaction; rows another rescuer (or a heartbeat) holds are skipped,
	 * so concurrent rescuers never wait for each other nor deadlock.
	 */
	List<Job> findExpired(Instant now, int limit) {
		return this.jdbc.query("SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table
				+ " WHERE state = 'active' AND locked_until < ? ORDER BY locked_until, id LIMIT ? FOR UPDATE SKIP LOCKED",
				ps -> {
					setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, this.rows.lazily());
	}

	/** Whether some active job's reservation expired before {@code now}; locks nothing. */
	private boolean anyExpired(Instant now) {
		return !this.jdbc.query("SELECT id FROM " + this.table + " WHERE state = 'active' AND locked_until < ? LIMIT 1",
				ps -> setInstant(ps, 1, now), (rs, rowNum) -> rs.getString(1)).isEmpty();
	}

	/** Discards the expired jobs ({@link #expire}) in the caller's transaction. */
	private List<Job> discardExpired(Instant now, int limit) {
		List<Job> expired = this.jdbc.query(expiredSelect(), ps -> {
			setInstant(ps, 1, now);
			ps.setInt(2, limit);
		}, this.rows.lazily());
		if (!expired.isEmpty()) {
			this.jdbc.update("UPDATE " + this.table + " SET state = 'discarded', discarded_at = ?, locked_by = NULL,"
					+ " locked_until = NULL WHERE state IN (" + EXPIRABLE + ") AND id IN (" + idMarkers(expired.size())
					+ ")", ps -> {
						setInstant(ps, 1, now);
						int index = 2;
						for (Job job : expired) {
							ps.setString(index++, job.id());
						}
					});
		}
		return expired.stream().map((row) -> JobRows.expired(row, now)).toList();
	}

	/** The expired jobs ({@code now}, {@code limit}), locked, skipping those another transaction holds. */
	final String expiredSelect() {
		return "SELECT " + JobRows.SELECT_COLUMNS + " FROM " + this.table + " WHERE " + expiredPredicate()
				+ " ORDER BY " + expiryOrder() + " LIMIT ? FOR UPDATE SKIP LOCKED";
	}

	/**
	 * Jobs waiting to run that expired by {@code ?}: by default the generated column
	 * {@code live_expires_at}, which is {@code expires_at} while the job waits to run.
	 */
	String expiredPredicate() {
		return "live_expires_at <= ?";
	}

	/** The order of {@link #expire}: earliest expiry first. */
	String expiryOrder() {
		return "live_expires_at";
	}

}

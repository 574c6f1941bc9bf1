package dev.ojs.cron;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;

/**
 * What recurring jobs need of storage: the schedules, the evaluator lease, and one atomic
 * step per tick. Implemented by {@link dev.ojs.jdbc.JdbcCronStore}.
 */
public interface CronStore {

	/** The current instant, by the application's clock. */
	Instant now();

	/**
	 * Takes the evaluator lease for {@code nodeId}, or renews it when the node holds it, until
	 * {@code ttl} from now by one clock all nodes share; fails while another node holds an
	 * unexpired lease (CRON-21/22/23).
	 * @return whether {@code nodeId} holds the lease now
	 */
	boolean holdLease(String nodeId, Duration ttl);

	/** Gives the lease up if {@code nodeId} holds it, so another node takes over at once. */
	void releaseLease(String nodeId);

	/** The node holding the lease, if it has not expired. */
	Optional<String> leaseHolder();

	/** Up to {@code limit} schedules whose next tick is due at {@code now}, earliest first (enabled ones only). */
	List<StoredSchedule> findDue(Instant now, int limit);

	/** Up to {@code limit} schedules with ticks waiting for their previous job (overlap {@code enqueue}). */
	List<StoredSchedule> findQueued(int limit);

	Optional<StoredSchedule> find(String name);

	/** Every schedule, by name. */
	List<StoredSchedule> findAll();

	/** The state of a job, or {@code null} when it is gone. */
	@Nullable JobState jobState(String jobId);

	/**
	 * One tick, all or nothing: compare-and-set of the schedule's {@code next_run_at} and
	 * {@code queued_runs}; then, if that won, the cancellation of the previous job and the
	 * insert of the tick's job. A duplicate evaluator loses the compare-and-set and writes nothing.
	 * @return the outcome, or empty when the compare-and-set lost
	 */
	Optional<Advanced> advance(Advance advance);

	/**
	 * Several ticks, each as {@link #advance} does it. A store may commit them in one
	 * transaction: each tick's compare-and-set and job still stand or fall together, and a
	 * tick whose compare-and-set lost writes nothing.
	 * @return the outcome of each tick, in the order given
	 */
	default List<Optional<Advanced>> advanceAll(List<Advance> advances) {
		return advances.stream().map(this::advance).toList();
	}

	/**
	 * Inserts or changes one schedule under a lock on its row: {@code change} gets the stored
	 * schedule (or {@code null}) and returns what to store.
	 */
	StoredSchedule save(String name, Function<@Nullable StoredSchedule, StoredSchedule> change);

	/** Deletes a schedule; {@code false} when there is none of that name. */
	boolean delete(String name);

	/**
	 * One tick's writes.
	 *
	 * @param name the schedule
	 * @param expectedNextRunAt its {@code next_run_at} as read
	 * @param expectedQueuedRuns its {@code queued_runs} as read
	 * @param nextRunAt the new {@code next_run_at}
	 * @param queuedRuns the new {@code queued_runs}
	 * @param tickAt the tick, stored as {@code last_run_at}
	 * @param outcome stored as {@code last_outcome}
	 * @param job the job to insert (its id becomes {@code last_job_id}), or {@code null}
	 * @param cancelJobId a job to cancel first, or {@code null}
	 */
	record Advance(String name, @Nullable Instant expectedNextRunAt, int expectedQueuedRuns,
			@Nullable Instant nextRunAt, int queuedRuns, Instant tickAt, String outcome, @Nullable NewJob job,
			@Nullable String cancelJobId) {
	}

	/**
	 * What a tick did.
	 *
	 * @param jobId the id of the tick's job, or {@code null} when it enqueued none
	 * @param runCount the schedule's run count after the tick
	 */
	record Advanced(@Nullable String jobId, long runCount) {
	}

}

package dev.ojs.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;

/**
 * What recurring jobs need of storage: the recurring jobs, the evaluator lease, and one atomic
 * step per occurrence. Implemented by {@link dev.ojs.jdbc.JdbcRecurringJobStore}.
 */
public interface RecurringJobStore {

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

	/**
	 * Up to {@code limit} recurring jobs whose next occurrence is due at {@code now}, earliest first (enabled ones
	 * only).
	 */
	List<StoredRecurringJob> findDue(Instant now, int limit);

	/** Up to {@code limit} recurring jobs with occurrences waiting for their previous job (overlap {@code enqueue}). */
	List<StoredRecurringJob> findQueued(int limit);

	Optional<StoredRecurringJob> find(String name);

	/** Every recurring job, by name. */
	List<StoredRecurringJob> findAll();

	/** The state of a job, or {@code null} when it is gone. */
	@Nullable JobState jobState(String jobId);

	/**
	 * One occurrence, all or nothing: compare-and-set of the recurring job's {@code next_run_at} and
	 * {@code queued_runs}; then, if that won, the cancellation of the previous job and the
	 * insert of the occurrence's job. A duplicate evaluator loses the compare-and-set and writes nothing.
	 * @return the outcome, or empty when the compare-and-set lost
	 */
	Optional<Advanced> advance(Advance advance);

	/**
	 * Several occurrences, each as {@link #advance} does it. A store may commit them in one
	 * transaction: each occurrence's compare-and-set and job still stand or fall together, and a
	 * occurrence whose compare-and-set lost writes nothing.
	 * @return the outcome of each occurrence, in the order given
	 */
	default List<Optional<Advanced>> advanceAll(List<Advance> advances) {
		return advances.stream().map(this::advance).toList();
	}

	/**
	 * Inserts or changes one recurring job under a lock on its row: {@code change} gets the stored
	 * recurring job (or {@code null}) and returns what to store.
	 */
	StoredRecurringJob save(String name, Function<@Nullable StoredRecurringJob, StoredRecurringJob> change);

	/** Deletes a recurring job; {@code false} when there is none of that name. */
	boolean delete(String name);

	/**
	 * One occurrence's writes.
	 *
	 * @param name the recurring job
	 * @param expectedNextRunAt its {@code next_run_at} as read
	 * @param expectedQueuedRuns its {@code queued_runs} as read
	 * @param nextRunAt the new {@code next_run_at}
	 * @param queuedRuns the new {@code queued_runs}
	 * @param occurrenceAt the occurrence, stored as {@code last_run_at}
	 * @param outcome stored as {@code last_outcome}
	 * @param job the job to insert (its id becomes {@code last_job_id}), or {@code null}
	 * @param cancelJobId a job to cancel first, or {@code null}
	 */
	record Advance(String name, @Nullable Instant expectedNextRunAt, int expectedQueuedRuns,
			@Nullable Instant nextRunAt, int queuedRuns, Instant occurrenceAt, String outcome, @Nullable NewJob job,
			@Nullable String cancelJobId) {
	}

	/**
	 * What an occurrence did.
	 *
	 * @param jobId the id of the occurrence's job, or {@code null} when it enqueued none
	 * @param runCount the recurring job's run count after the occurrence
	 */
	record Advanced(@Nullable String jobId, long runCount) {
	}

}

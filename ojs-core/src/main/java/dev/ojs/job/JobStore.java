package dev.ojs.job;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What applications and operators do with stored jobs: enqueue, look up, cancel, count,
 * manage dead letters, and pause and resume queues. The worker's claim/complete/fail/
 * heartbeat/reap operations live on the JDBC implementation, next to their SQL.
 */
public interface JobStore {

	/**
	 * Inserts jobs in one round trip, joining the caller's transaction when one is active.
	 * Unique keys are unique per type among live jobs: a job whose type and unique key match
	 * a live (non-terminal) job is not inserted; that job's id is returned in its place.
	 * @return the ids, in the order of {@code jobs}
	 */
	List<String> insert(List<NewJob> jobs);

	Optional<Job> find(String id);

	/**
	 * The store's clock: the instant it writes as now, against which a job is due
	 * ({@link Job#at(Instant)}).
	 */
	default Instant now() {
		return Instant.now();
	}

	/** The result a job's successful attempt returned, as JSON (spec README decision 28); empty for none. */
	default Optional<String> result(String id) {
		return Optional.empty();
	}

	/**
	 * Cancels a live job (ojs-core.md §7.6): a scheduled, available or retryable job at once;
	 * an active one too, and its worker's later outcome is rejected.
	 * @return whether it was cancelled; {@code false} when there is no such job or it already
	 * ended (completed, discarded or cancelled)
	 */
	boolean cancel(String id);

	/**
	 * Cancels those of the jobs that are live, as {@link #cancel(String)} each; a JDBC store
	 * does it in one statement per chunk of ids.
	 * @return how many were cancelled
	 */
	default int cancel(Collection<String> ids) {
		int cancelled = 0;
		for (String id : ids) {
			if (cancel(id)) {
				cancelled++;
			}
		}
		return cancelled;
	}

	/**
	 * Activates a pending job (ojs-core.md §6.2): it becomes available now.
	 * @return whether it did; {@code false} when there is no such job or it is not pending
	 */
	boolean activate(String id);

	/** Job counts per queue, then per state. */
	Map<String, Map<JobState, Long>> countByQueueAndState();

	/** Dead letters matching the filter, newest first. */
	List<Job> findDeadLetters(DeadLetterFilter filter, int offset, int limit);

	/**
	 * Keyset page of dead letters: those after the dead letter ({@code discardedAt},
	 * {@code id}) in the newest-first order of {@link #findDeadLetters}.
	 */
	List<Job> findDeadLettersBefore(DeadLetterFilter filter, Instant discardedAt, String id, int limit);

	long countDeadLetters(DeadLetterFilter filter);

	DeadLetterStats deadLetterStats();

	/**
	 * Moves a dead letter back to {@code available}: same id and policy, attempt reset to 0,
	 * error history kept, {@link Job#enqueuedAt() enqueued} now ({@link Job#createdAt()}
	 * unchanged).
	 */
	boolean retryDeadLetter(String id);

	/** {@link #retryDeadLetter(String)} for every dead letter matching the filter. */
	int retryDeadLetters(DeadLetterFilter filter);

	boolean deleteDeadLetter(String id);

	/**
	 * Publishes the handlers of a worker node (upsert by type): nodes that lack a handler
	 * route and retry its jobs by what was published. A store that cannot share them
	 * ignores this.
	 */
	default void publishHandlers(List<PublishedHandler> handlers) {
	}

	/** The latest publication of a job type's handler, if any node published one. */
	default Optional<PublishedHandler> findPublishedHandler(String type) {
		return Optional.empty();
	}

	/** Every published handler, sorted by type. */
	default List<PublishedHandler> publishedHandlers() {
		return List.of();
	}

	/**
	 * Pauses a queue (ojs-admin-api.md §6.3), also one that never held a job: no worker
	 * claims its jobs until it is resumed; enqueues into it still succeed.
	 * @return the queue's state after the call
	 * @throws IllegalArgumentException when the name is blank or too long
	 * @throws UnsupportedOperationException when the store cannot pause queues
	 */
	default QueueState pauseQueue(String queue) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot pause queues");
	}

	/**
	 * Resumes a queue (ojs-admin-api.md §6.4): workers claim its jobs again.
	 * @return the queue's state after the call
	 * @throws IllegalArgumentException when the name is blank or too long
	 * @throws UnsupportedOperationException when the store cannot pause queues
	 */
	default QueueState resumeQueue(String queue) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot pause queues");
	}

	/**
	 * Sets a queue's rate limit (ojs-queue-config.md §6.2, §8.3), or removes it with
	 * {@code null}: at most {@link RateLimit#limit()} of its jobs start per
	 * {@link RateLimit#period()}, on all nodes and workers together.
	 * @return the queue's state after the call
	 * @throws IllegalArgumentException when the name is blank or too long
	 * @throws UnsupportedOperationException when the store cannot limit queues
	 */
	default QueueState setRateLimit(String queue, @Nullable RateLimit limit) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot rate-limit queues");
	}

	/**
	 * Sets a queue's concurrency limit (ojs-queue-config.md §6.2), or removes it with
	 * {@code null}: at most {@code concurrency} of its jobs are active at once, on all nodes and
	 * workers together.
	 * @return the queue's state after the call
	 * @throws IllegalArgumentException when the name is blank or too long, or the limit is below 1
	 * @throws UnsupportedOperationException when the store cannot limit queues
	 */
	default QueueState setConcurrency(String queue, @Nullable Integer concurrency) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot limit the concurrency of queues");
	}

	/**
	 * Sets a job type's limits on all nodes and workers together, or removes them with
	 * {@link TypeLimit#NONE}.
	 * @throws IllegalArgumentException when the type is blank or too long
	 * @throws UnsupportedOperationException when the store cannot limit job types
	 */
	default void setTypeLimit(String type, TypeLimit limit) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot limit the concurrency of job types");
	}

	/** The limits of every limited job type, by type. */
	default Map<String, TypeLimit> typeLimits() {
		return Map.of();
	}

	/**
	 * Sets a job type's concurrency limit, or removes it with {@code null}, keeping its limit
	 * per key: at most {@code concurrency} jobs of the type are active at once.
	 * @throws IllegalArgumentException when the type is blank or too long, or the limit is below 1
	 */
	default void setTypeConcurrency(String type, @Nullable Integer concurrency) {
		TypeLimit limit = typeLimits().getOrDefault(type, TypeLimit.NONE);
		setTypeLimit(type, new TypeLimit(concurrency, limit.concurrencyPerKey()));
	}

	/** The queues that were ever paused or resumed, with their state, in name order. */
	default List<QueueState> queueStates() {
		return List.of();
	}

	/** Throws when the job table cannot be read. */
	void checkAvailable();

}

package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.PublishedHandler;

/**
 * What the worker needs from storage (the engine's port), shaped for batches: one call
 * claims many jobs, writes many outcomes or extends many reservations. Every write to a
 * claimed job is guarded by its id, attempt and reservation owner, so a late write for an
 * attempt whose reservation was reaped changes nothing and is reported as not written.
 * {@link dev.ojs.jdbc.JdbcJobStore} implements it.
 */
public interface WorkerStore {

	/**
	 * The key of a {@link #claim} visibility map that claims jobs of every type: a map with
	 * only this key takes any due job of the queue (an external worker that names no types).
	 * No job type contains {@code *}.
	 */
	String ANY_TYPE = "*";

	/** The store's clock, at the precision it stores. */
	Instant now();

	/**
	 * Claims up to {@code limit} due jobs of the given types from {@code queue} for
	 * {@code nodeId}, in claim order (priority descending, FIFO within a priority): each
	 * becomes {@code active} with its attempt incremented and is reserved until now plus
	 * its type's visibility timeout (spec §9.1). A map with only {@link #ANY_TYPE} claims
	 * jobs of every type with that one visibility timeout.
	 */
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit);

	/**
	 * {@link #claim(String, String, Map, int)}, where a job's own visibility timeout
	 * ({@link Job#visibilityTimeout()}) replaces the claim's when {@code jobVisibilityWins}
	 * (a fetch that names none). Either way a job's reservation ends no later than its
	 * execution timeout ({@link Job#deadline()}), as the plain claim does too.
	 */
	default List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			boolean jobVisibilityWins) {
		return claim(nodeId, queue, visibilityByType, limit);
	}

	/**
	 * When the next job of a rate-limited queue may start (ojs-queue-config.md §8.3), if its
	 * last claim found the queue's limit reached; {@code null} when it did not, or when the
	 * store cannot limit queues.
	 */
	default @Nullable Instant throttledUntil(String queue) {
		return null;
	}

	/**
	 * Whether the last claim of a queue with a concurrency limit (ojs-queue-config.md §6.2)
	 * through this store, a poller's or an HTTP worker's, came back short for want of a free
	 * slot; its pollers then wait to be told of one (a job of the queue that ends wakes them)
	 * or for their poll interval. {@code false} when the store cannot limit queues.
	 */
	default boolean atConcurrencyLimit(String queue) {
		return false;
	}

	/**
	 * Records successful attempts: {@code completed}, or deleted when {@code delete}.
	 * @return the ids written, among theirs (as many as the jobs means all); the others were no longer this attempt's
	 */
	Set<String> complete(List<Job> jobs, boolean delete);

	/**
	 * Records successful attempts with the results of those that returned one (JSON by job
	 * id, spec README decision 28), stored with the completion; dropped when {@code delete}.
	 * @return the ids written, among theirs (as many as the jobs means all); the others were no longer this attempt's
	 */
	default Set<String> complete(List<Job> jobs, Map<String, String> results, boolean delete) {
		if (!results.isEmpty()) {
			throw new UnsupportedOperationException("This store keeps no job results");
		}
		return complete(jobs, delete);
	}

	/**
	 * A claim made in the transaction of outcomes, for the slots they free (a hand-over): up
	 * to {@code limit} jobs of {@code queue} of these types, as {@link #claim} takes them.
	 */
	record Refill(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit) {
	}

	/**
	 * Whether the completions of a queue's jobs claim its next jobs in their transaction
	 * ({@link Refill}): where claims take turns, on a queue with a concurrency limit on all
	 * nodes. {@code false} when the store cannot.
	 */
	default boolean handsOverSlots(String queue) {
		return false;
	}

	/**
	 * Completions written, and the jobs each refill claimed (in the order of the refills).
	 * @param written the ids written; the others were no longer this attempt's
	 */
	record Completed(Set<String> written, List<List<Job>> claimed) {
	}

	/**
	 * Records successful attempts as {@link #complete(List, Map, boolean)} does and, in the
	 * same transaction, claims for each refill, so the slots these attempts held are taken
	 * again without a commit between (a limited queue's among them). A store that cannot
	 * claims nothing here, and the pollers claim.
	 */
	default Completed complete(List<Job> jobs, Map<String, String> results, boolean delete, List<Refill> refills) {
		return new Completed(complete(jobs, results, delete), List.of());
	}

	/**
	 * Records failed attempts.
	 * @return the ids written, among theirs (as many as the jobs means all); the others were no longer this attempt's
	 */
	Set<String> fail(List<AttemptFailure> failures);

	/**
	 * Returns claimed jobs that never started to {@code available}, attempt not consumed.
	 * @return the ids released
	 */
	Set<String> release(List<Job> jobs);

	/**
	 * Extends the reservations {@code nodeId} holds on these jobs (spec §9.3, RET-13), never
	 * past a job's execution timeout ({@link Job#deadline()}).
	 * @return how many it still held
	 */
	int heartbeat(String nodeId, List<String> ids, Instant lockedUntil);

	/**
	 * The job with this id, as stored now (for the outcome of an attempt an external worker
	 * reports by id). Unsupported unless the store can look jobs up.
	 */
	default Optional<Job> find(String id) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot look up jobs");
	}

	/**
	 * The jobs with these ids that exist, as stored now, in any order (for the outcomes external
	 * workers report by id). A store may read their error histories when first used, as a
	 * claim's: an outcome's reservation check needs none.
	 */
	default List<Job> findAll(List<String> ids) {
		return ids.stream().distinct().map(this::find).flatMap(Optional::stream).toList();
	}

	/** Those of these claimed jobs whose reservation is still theirs (same attempt and owner, active). */
	List<Job> reservationsHeld(List<Job> jobs);

	/**
	 * The ids of these claimed jobs that were cancelled while claimed (ojs-core.md §7.6): their
	 * handlers should stop, and their outcomes are rejected. Empty when the store cannot
	 * cancel claimed jobs.
	 */
	default Set<String> cancelled(List<Job> jobs) {
		return Set.of();
	}

	/**
	 * The names of the paused queues (ojs-queue-config.md §5.1), from which nothing is
	 * claimed. Empty when the store cannot pause queues.
	 */
	default Set<String> pausedQueues() {
		return Set.of();
	}

	/**
	 * Turns up to {@code limit} expired reservations, of any node, into failed attempts
	 * (spec §9.2, RET-12); {@code decide} says where each goes. Safe on every node at once:
	 * each expired attempt is recorded once.
	 * @return the failures written by this call
	 */
	List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide);

	/**
	 * Discards up to {@code limit} jobs still waiting to run (scheduled, available, retryable
	 * or pending) whose {@code expires_at} has passed, earliest first: each becomes
	 * {@code discarded} with {@code discarded_at}, never {@code completed_at}, no error entry
	 * and no dead letter (ojs-core.md {@code expires_at}). Safe on every node at once: each
	 * job is discarded once.
	 * @return the jobs discarded by this call, as they are now
	 */
	List<Job> expire(int limit);

	/** The earliest {@code limit} distinct future due times of the queue's scheduled and retryable jobs. */
	List<Instant> nextDueTimes(String queue, int limit);

	/**
	 * Deletes finished jobs past their retention, for at most about {@code budget}.
	 * @return how many were deleted
	 */
	long prune(RetentionSettings retention, Duration budget);

	/**
	 * The latest publication of a job type's handler (for the policy of a job whose handler
	 * this node lacks); empty when none, or when the store does not share handlers.
	 */
	default Optional<PublishedHandler> findPublishedHandler(String type) {
		return Optional.empty();
	}

	/** Whether a write failed for a reason that passes (connection lost, deadlock): retrying it will work. */
	boolean isTransient(Throwable failure);

	/**
	 * Listens for inserts, calling {@code onInsert} with the queue of each, and with
	 * {@code null} when some may have been missed (after a reconnect). Empty when the store
	 * cannot notify; closing the handle stops listening.
	 */
	Optional<AutoCloseable> listenForInserts(Consumer<@Nullable String> onInsert);

	/**
	 * Told before a worker starts: its own threads may hold {@code engineConnections} at
	 * once, its handlers {@code handlerSlots} more. The store logs what would slow the
	 * worker down (too small a pool, a table nothing vacuums).
	 */
	void workerStarting(int engineConnections, int handlerSlots);

	/**
	 * Records a worker node's heartbeat (ojs-admin-api.md §9): one statement per heartbeat
	 * period, never per job. A store that cannot keep nodes ignores it.
	 */
	default void nodeHeartbeat(NodeInfo node) {
	}

	/** Forgets a node that stopped cleanly. */
	default void nodeStopped(String nodeId) {
	}

}

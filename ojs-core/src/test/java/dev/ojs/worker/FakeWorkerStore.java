package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.MutableClock;

/**
 * An in-memory {@link WorkerStore} on a {@link MutableClock}, with the guarded-write
 * semantics of the real store (a write for an attempt no longer held changes nothing and is
 * not reported written), and ways to make the next writes fail or see every call.
 */
final class FakeWorkerStore implements WorkerStore {

	/** What {@link #isTransient} says passes. */
	static final class TransientFailure extends RuntimeException {

		TransientFailure(String message) {
			super(message);
		}

	}

	final MutableClock clock;

	private final Map<String, Job> jobs = new LinkedHashMap<>();

	/** Failures thrown by the next complete/fail calls, one each, in order. */
	final ConcurrentLinkedQueue<RuntimeException> writeFailures = new ConcurrentLinkedQueue<>();

	/** Every complete/fail call's ids, in order: one entry per statement. */
	final List<List<String>> writes = new CopyOnWriteArrayList<>();

	/** Failures thrown by the next claims, one each, in order. */
	final ConcurrentLinkedQueue<RuntimeException> claimFailures = new ConcurrentLinkedQueue<>();

	/** Every claim's limit, in order. */
	final List<Integer> claimLimits = new CopyOnWriteArrayList<>();

	/** When each claim was asked for ({@link System#nanoTime()}). */
	final List<Long> claimedAtNanos = new CopyOnWriteArrayList<>();

	final List<RetentionSettings> prunes = new CopyOnWriteArrayList<>();

	final AtomicInteger heartbeats = new AtomicInteger();

	/** The paused queues {@link #pausedQueues()} reports. */
	final Set<String> paused = ConcurrentHashMap.newKeySet();

	/** How often {@link #pausedQueues()} was asked. */
	final AtomicInteger pauseReads = new AtomicInteger();

	/** Failures thrown by the next {@link #pausedQueues()} calls, one each, in order. */
	final ConcurrentLinkedQueue<RuntimeException> pauseReadFailures = new ConcurrentLinkedQueue<>();

	/** Set by {@link #listenForInserts} when {@link #notifies}. */
	volatile Consumer<String> insertCallback;

	volatile boolean notifies;

	FakeWorkerStore(MutableClock clock) {
		this.clock = clock;
	}

	FakeWorkerStore() {
		this(MutableClock.startingNow());
	}

	/** Adds a job that is due now. */
	synchronized Job add(String type, String queue) {
		return add(type, queue, 0, RetryPolicy.DEFAULT, now());
	}

	synchronized Job add(String type, String queue, int priority, RetryPolicy policy, Instant runAt) {
		Instant now = now();
		JobState state = runAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
		Job job = new Job(JobIds.newId(), type, queue, "[]", "{}", priority, state, 0, policy.maxAttempts(), policy,
				List.of(), false, null, runAt, now, now, null, null, null, null, null);
		this.jobs.put(job.id(), job);
		return job;
	}

	synchronized Job get(String id) {
		return this.jobs.get(id);
	}

	@Override
	public synchronized Optional<Job> find(String id) {
		return Optional.ofNullable(this.jobs.get(id));
	}

	synchronized List<Job> all() {
		return new ArrayList<>(this.jobs.values());
	}

	/** Cancels a live job, as the application's store does (ojs-core.md §7.6); whether it did. */
	synchronized boolean cancel(String id) {
		Job stored = this.jobs.get(id);
		if (stored == null || stored.state().isTerminal()) {
			return false;
		}
		this.jobs.put(id, copy(stored, JobState.CANCELLED, stored.attempt(), stored.scheduledAt(), stored.errors(), false,
				stored.startedAt(), null, now(), stored.lockedBy(), null));
		return true;
	}

	/** Puts a stored job back as given (to expire a reservation, say). */
	synchronized void put(Job job) {
		this.jobs.put(job.id(), job);
	}

	@Override
	public Instant now() {
		return this.clock.instant();
	}

	@Override
	public synchronized List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType,
			int limit) {
		this.claimLimits.add(limit);
		this.claimedAtNanos.add(System.nanoTime());
		RuntimeException failure = this.claimFailures.poll();
		if (failure != null) {
			throw failure;
		}
		Instant now = now();
		List<Job> due = this.jobs.values()
			.stream()
			.filter((job) -> job.queue().equals(queue) && visibilityByType.containsKey(job.type())
					&& Set.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE).contains(job.state())
					&& !job.scheduledAt().isAfter(now) && !expired(job, now))
			.sorted(Comparator.comparingInt(Job::priority).reversed().thenComparing(Job::scheduledAt).thenComparing(Job::id))
			.limit(limit)
			.toList();
		List<Job> claimed = new ArrayList<>();
		for (Job job : due) {
			Job active = copy(job, JobState.ACTIVE, job.attempt() + 1, job.scheduledAt(), job.errors(), false, now, null,
					null, nodeId, Timestamps.plus(now, visibilityByType.get(job.type())));
			this.jobs.put(job.id(), active);
			claimed.add(active);
		}
		return claimed;
	}

	@Override
	public synchronized Set<String> complete(List<Job> claimed, boolean delete) {
		failIfAsked(claimed);
		Set<String> written = new HashSet<>();
		for (Job job : claimed) {
			if (holds(job)) {
				if (delete) {
					this.jobs.remove(job.id());
				}
				else {
					Job stored = this.jobs.get(job.id());
					this.jobs.put(job.id(), copy(stored, JobState.COMPLETED, stored.attempt(), stored.scheduledAt(),
							stored.errors(), false, stored.startedAt(), now(), null, stored.lockedBy(), null));
				}
				written.add(job.id());
			}
		}
		return written;
	}

	@Override
	public synchronized Set<String> fail(List<AttemptFailure> failures) {
		failIfAsked(failures.stream().map(AttemptFailure::job).toList());
		return write(failures);
	}

	private Set<String> write(List<AttemptFailure> failures) {
		Set<String> written = new HashSet<>();
		for (AttemptFailure failure : failures) {
			if (holds(failure.job())) {
				Job stored = this.jobs.get(failure.job().id());
				this.jobs.put(stored.id(), copy(stored, failure.storedState(), stored.attempt(), failure.scheduledAt(),
						failure.errors(), failure.deadLetter(), stored.startedAt(), null, failure.discardedAt(),
						stored.lockedBy(), null));
				written.add(stored.id());
			}
		}
		return written;
	}

	private void failIfAsked(List<Job> claimed) {
		this.writes.add(claimed.stream().map(Job::id).toList());
		RuntimeException failure = this.writeFailures.poll();
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public synchronized Set<String> release(List<Job> claimed) {
		Set<String> released = new HashSet<>();
		for (Job job : claimed) {
			if (holds(job)) {
				Job stored = this.jobs.get(job.id());
				this.jobs.put(job.id(), copy(stored, JobState.AVAILABLE, stored.attempt() - 1, stored.scheduledAt(),
						stored.errors(), false, null, null, null, null, null));
				released.add(job.id());
			}
		}
		return released;
	}

	@Override
	public synchronized int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		this.heartbeats.incrementAndGet();
		int extended = 0;
		for (String id : ids) {
			Job stored = this.jobs.get(id);
			if (stored != null && stored.state() == JobState.ACTIVE && nodeId.equals(stored.lockedBy())) {
				this.jobs.put(id, copy(stored, JobState.ACTIVE, stored.attempt(), stored.scheduledAt(), stored.errors(),
						false, stored.startedAt(), null, null, nodeId, lockedUntil));
				extended++;
			}
		}
		return extended;
	}

	@Override
	public synchronized List<Job> reservationsHeld(List<Job> claimed) {
		return claimed.stream().filter(this::holds).toList();
	}

	@Override
	public synchronized Set<String> cancelled(List<Job> claimed) {
		Set<String> cancelled = new HashSet<>();
		for (Job job : claimed) {
			Job stored = this.jobs.get(job.id());
			if (stored != null && stored.state() == JobState.CANCELLED) {
				cancelled.add(job.id());
			}
		}
		return cancelled;
	}

	@Override
	public Set<String> pausedQueues() {
		this.pauseReads.incrementAndGet();
		RuntimeException failure = this.pauseReadFailures.poll();
		if (failure != null) {
			throw failure;
		}
		return Set.copyOf(this.paused);
	}

	@Override
	public synchronized List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide) {
		Instant now = now();
		List<AttemptFailure> failures = this.jobs.values()
			.stream()
			.filter((job) -> job.state() == JobState.ACTIVE && job.lockedUntil().isBefore(now))
			.sorted(Comparator.comparing(Job::lockedUntil).thenComparing(Job::id))
			.limit(limit)
			.map(decide)
			.toList();
		Set<String> written = write(failures);
		return failures.stream().filter((failure) -> written.contains(failure.job().id())).toList();
	}

	@Override
	public synchronized List<Instant> nextDueTimes(String queue, int limit) {
		Instant now = now();
		return this.jobs.values()
			.stream()
			.filter((job) -> job.queue().equals(queue)
					&& (job.state() == JobState.SCHEDULED || job.state() == JobState.RETRYABLE)
					&& job.scheduledAt().isAfter(now))
			.map(Job::scheduledAt)
			.distinct()
			.sorted()
			.limit(limit)
			.toList();
	}

	@Override
	public synchronized long prune(RetentionSettings retention, Duration budget) {
		this.prunes.add(retention);
		Instant completedBefore = Timestamps.minus(now(), retention.completed());
		List<String> expired = this.jobs.values()
			.stream()
			.filter((job) -> job.state() == JobState.COMPLETED && job.completedAt().isBefore(completedBefore))
			.map(Job::id)
			.toList();
		expired.forEach(this.jobs::remove);
		return expired.size();
	}

	@Override
	public boolean isTransient(Throwable failure) {
		return failure instanceof TransientFailure;
	}

	@Override
	public Optional<AutoCloseable> listenForInserts(Consumer<String> onInsert) {
		if (!this.notifies) {
			return Optional.empty();
		}
		this.insertCallback = onInsert;
		return Optional.of(() -> this.insertCallback = null);
	}

	@Override
	public void workerStarting(int engineConnections, int handlerSlots) {
	}

	/** The guard of every write: the same attempt, still active, held by the same node. */
	private boolean holds(Job claimed) {
		Job stored = this.jobs.get(claimed.id());
		return stored != null && stored.state() == JobState.ACTIVE && stored.attempt() == claimed.attempt()
				&& claimed.lockedBy().equals(stored.lockedBy());
	}

	private static Job copy(Job job, JobState state, int attempt, Instant scheduledAt, List<dev.ojs.job.ErrorEntry> errors,
			boolean deadLetter, Instant startedAt, Instant completedAt, Instant discardedAt, String lockedBy,
			Instant lockedUntil) {
		return new Job(job.id(), job.type(), job.queue(), job.argsJson(), job.metaJson(), job.priority(), state, attempt,
				job.maxAttempts(), job.retryPolicy(), errors, deadLetter, job.uniqueKey(), scheduledAt, job.createdAt(),
				job.enqueuedAt(), startedAt, completedAt, discardedAt, lockedBy, lockedUntil, job.expiresAt());
	}

	private static boolean expired(Job job, Instant now) {
		return job.expiresAt() != null && !job.expiresAt().isAfter(now);
	}

	/** Every {@link #expire} call's limit, in order. */
	final List<Integer> expireLimits = new CopyOnWriteArrayList<>();

	@Override
	public synchronized List<Job> expire(int limit) {
		this.expireLimits.add(limit);
		Instant now = now();
		List<Job> expired = this.jobs.values()
			.stream()
			.filter((job) -> Set.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.RETRYABLE, JobState.PENDING)
				.contains(job.state()) && expired(job, now))
			.sorted(Comparator.comparing(Job::expiresAt).thenComparing(Job::id))
			.limit(limit)
			.toList();
		List<Job> discarded = new ArrayList<>();
		for (Job job : expired) {
			Job copy = copy(job, JobState.DISCARDED, job.attempt(), job.scheduledAt(), job.errors(), false,
					job.startedAt(), null, now, null, null);
			this.jobs.put(job.id(), copy);
			discarded.add(copy);
		}
		return discarded;
	}

	/** Puts a job that is due now and expires at {@code expiresAt}. */
	synchronized Job addExpiring(String type, String queue, Instant expiresAt) {
		Job job = add(type, queue);
		Job expiring = new Job(job.id(), job.type(), job.queue(), job.argsJson(), job.metaJson(), job.priority(),
				job.state(), job.attempt(), job.maxAttempts(), job.retryPolicy(), job.errors(), job.deadLetter(),
				job.uniqueKey(), job.scheduledAt(), job.createdAt(), job.enqueuedAt(), null, null, null, null, null,
				expiresAt);
		this.jobs.put(job.id(), expiring);
		return expiring;
	}

}

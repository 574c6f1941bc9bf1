package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link Completer}: attempt outcomes written in batches on its own thread, one statement
 * for completions and one for failures; transient errors retried, other errors written row
 * by row; guarded writes whose reservation was reaped (spec §9.2) reported not accepted; the
 * listener told once per stored outcome, with the kind the retry decision gave (§7.2, RET-17).
 */
class CompleterTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String NODE = "node-1";

	private static final String TYPE = "test.job";

	private static final Duration VISIBILITY = Duration.ofSeconds(30);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final FailurePlanner planner = new FailurePlanner(RetryDelayOverride.NONE, 20, TestPolicies.jobsOwn());

	private final RecordingListener listener = new RecordingListener();

	/** What the completer said of each outcome, in order: the job id and whether it was accepted. */
	private final List<Map.Entry<String, Boolean>> written = new CopyOnWriteArrayList<>();

	private final List<Completer> completers = new ArrayList<>();

	@AfterEach
	void stopCompleters() {
		this.completers.forEach((completer) -> completer.stop(TIMEOUT));
	}

	@Test
	void outcomesQueuedWhileABatchIsWrittenFormTheNextBatchOneStatementPerKind() throws Exception {
		GatedStore gated = new GatedStore(this.store);
		Completer completer = completer(gated, false);
		LocalAttempt first = claim(RetryPolicy.DEFAULT);
		completer.submit(completion(first));
		completer.start();
		assertThat(gated.entered.await(10, TimeUnit.SECONDS)).isTrue();

		// the first batch is being written: these wait for the next one
		List<LocalAttempt> completions = List.of(claim(RetryPolicy.DEFAULT), claim(RetryPolicy.DEFAULT));
		List<LocalAttempt> failures = List.of(claim(RetryPolicy.DEFAULT), claim(RetryPolicy.DEFAULT));
		completer.submit(completion(completions.get(0)));
		completer.submit(failure(failures.get(0), JobError.of("external.timeout", "slow")));
		completer.submit(completion(completions.get(1)));
		completer.submit(failure(failures.get(1), JobError.of("external.timeout", "slow")));
		gated.release.countDown();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 5);
		assertThat(this.store.writes).containsExactly(List.of(first.id()), ids(completions), ids(failures));
		assertThat(this.written).allSatisfy((entry) -> assertThat(entry.getValue()).isTrue());
		assertThat(this.store.get(first.id()).state()).isEqualTo(JobState.COMPLETED);
		completions.forEach((attempt) -> assertThat(this.store.get(attempt.id()).state())
			.isEqualTo(JobState.COMPLETED));
		failures.forEach((attempt) -> assertThat(this.store.get(attempt.id()).state())
			.isEqualTo(JobState.RETRYABLE));
	}

	@Test
	void aBatchHoldsAtMostMaxBatchOutcomes() {
		Completer completer = completer(this.store, false);
		List<LocalAttempt> attempts = claimMany(Completer.MAX_BATCH + 1);
		attempts.forEach((attempt) -> completer.submit(completion(attempt)));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == Completer.MAX_BATCH + 1);
		assertThat(this.store.writes).extracting(List::size).containsExactly(Completer.MAX_BATCH, 1);
	}

	@Test
	void listenerIsToldOncePerWrittenOutcomeWithItsKind() {
		Completer completer = completer(this.store, false);
		LocalAttempt completed = claim(RetryPolicy.DEFAULT);
		LocalAttempt retrying = claim(RetryPolicy.DEFAULT);
		LocalAttempt discarded = claim(RetryPolicy.DEFAULT);
		LocalAttempt deadLettered = claim(RetryPolicy.DEFAULT);
		LocalAttempt exhausted =
				claim(RetryPolicy.builder().maxAttempts(1).onExhaustion(OnExhaustion.DEAD_LETTER).build()
			.effective());
		Completer.Outcome retry = failure(retrying, JobError.of("external.timeout", "slow"));
		completer.submit(completion(completed));
		completer.submit(retry);
		completer.submit(failure(discarded, new JobError("payment.declined", "no", ErrorCode.DISCARD, Map.of())));
		completer.submit(failure(deadLettered, new JobError("payment.stolen", "no", ErrorCode.DEAD_LETTER, Map.of())));
		completer.submit(failure(exhausted, JobError.of("external.timeout", "slow")));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 5);
		assertThat(this.listener.kinds(completed.id())).containsExactly("completed");
		assertThat(this.listener.kinds(retrying.id())).containsExactly("retrying");
		assertThat(this.listener.kinds(discarded.id())).containsExactly("discarded");
		assertThat(this.listener.kinds(deadLettered.id())).containsExactly("deadLettered");
		assertThat(this.listener.kinds(exhausted.id())).containsExactly("deadLettered");
		assertThat(this.listener.events).hasSize(5);
		RecordingListener.Event event = this.listener.of(retrying.id()).get(0);
		assertThat(event.nextRetryAt()).isEqualTo(retry.plan().attemptFailure().nextRetryAt());
		assertThat(event.delay()).isEqualTo(retry.plan().delay());
		assertThat(event.error().type()).isEqualTo("external.timeout");
		assertThat(event.job().attempt()).isEqualTo(1);
		// what was written: one statement for the completion, one for the four failures
		assertThat(this.store.writes).containsExactly(List.of(completed.id()),
				List.of(retrying.id(), discarded.id(), deadLettered.id(), exhausted.id()));
		assertThat(this.store.get(retrying.id()).nextRetryAt()).isEqualTo(event.nextRetryAt());
		assertThat(this.store.get(deadLettered.id()).deadLetter()).isTrue();
		assertThat(this.store.get(discarded.id()).deadLetter()).isFalse();
		assertThat(this.store.get(discarded.id()).state()).isEqualTo(JobState.DISCARDED);
	}

	@Test
	void completedJobsAreDeletedWhenAskedTo() {
		Completer completer = completer(this.store, true);
		LocalAttempt attempt = claim(RetryPolicy.DEFAULT);
		completer.submit(completion(attempt));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 1);
		assertThat(this.store.get(attempt.id())).isNull();
		assertThat(this.listener.kinds(attempt.id())).containsExactly("completed");
	}

	@Test
	void transientFailureRetriesTheBatchLosingAndRepeatingNothing() {
		Completer completer = completer(this.store, false);
		LocalAttempt a = claim(RetryPolicy.DEFAULT);
		LocalAttempt b = claim(RetryPolicy.DEFAULT);
		LocalAttempt c = claim(RetryPolicy.DEFAULT);
		this.store.writeFailures.add(new FakeWorkerStore.TransientFailure("connection reset"));
		this.store.writeFailures.add(new FakeWorkerStore.TransientFailure("deadlock"));
		completer.submit(completion(a));
		completer.submit(completion(b));
		completer.submit(failure(c, JobError.of("external.timeout", "slow")));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 3);
		// both statements failed once, then were written again as the same statements
		assertThat(this.store.writes).containsExactly(List.of(a.id(), b.id()), List.of(c.id()), List.of(a.id(), b.id()),
				List.of(c.id()));
		assertThat(this.written).containsExactlyInAnyOrder(Map.entry(a.id(), true), Map.entry(b.id(), true),
				Map.entry(c.id(), true));
		assertThat(this.listener.kinds(a.id())).containsExactly("completed");
		assertThat(this.listener.kinds(b.id())).containsExactly("completed");
		assertThat(this.listener.kinds(c.id())).containsExactly("retrying");
		assertThat(this.store.get(a.id()).state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void outcomesArrivingWhileABatchIsRetriedJoinIt() throws Exception {
		GatedStore gated = new GatedStore(this.store);
		Completer completer = completer(gated, false);
		LocalAttempt a = claim(RetryPolicy.DEFAULT);
		LocalAttempt b = claim(RetryPolicy.DEFAULT);
		this.store.writeFailures.add(new FakeWorkerStore.TransientFailure("connection reset"));
		completer.submit(completion(a));
		completer.start();
		assertThat(gated.entered.await(10, TimeUnit.SECONDS)).isTrue();
		completer.submit(completion(b));
		gated.release.countDown();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 2);
		assertThat(this.store.writes).containsExactly(List.of(a.id()), List.of(a.id(), b.id()));
		assertThat(this.listener.events).hasSize(2);
	}

	@Test
	void nonTransientBatchFailureIsWrittenRowByRowDroppingOnlyTheBadRow() {
		LocalAttempt good1 = claim(RetryPolicy.DEFAULT);
		LocalAttempt bad = claim(RetryPolicy.DEFAULT);
		LocalAttempt good2 = claim(RetryPolicy.DEFAULT);
		LocalAttempt failed = claim(RetryPolicy.DEFAULT);
		PoisonedStore poisoned = new PoisonedStore(this.store, bad.id());
		Completer completer = completer(poisoned, false);
		completer.submit(completion(good1));
		completer.submit(completion(bad));
		completer.submit(completion(good2));
		completer.submit(failure(failed, JobError.of("external.timeout", "slow")));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 4);
		assertThat(poisoned.calls).containsExactly(List.of(good1.id(), bad.id(), good2.id()), List.of(good1.id()),
				List.of(bad.id()), List.of(good2.id()), List.of(failed.id()));
		assertThat(this.written).containsExactly(Map.entry(good1.id(), true), Map.entry(bad.id(), false),
				Map.entry(good2.id(), true), Map.entry(failed.id(), true));
		assertThat(this.listener.kinds(good1.id())).containsExactly("completed");
		assertThat(this.listener.kinds(good2.id())).containsExactly("completed");
		assertThat(this.listener.kinds(failed.id())).containsExactly("retrying");
		assertThat(this.listener.of(bad.id())).isEmpty();
		// the dropped row keeps its reservation until the rescuer records the attempt (§9.2)
		assertThat(this.store.get(bad.id()).state()).isEqualTo(JobState.ACTIVE);
		assertThat(this.store.get(good2.id()).state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void outcomeOfAReapedAttemptIsNotAcceptedAndNotTold() {
		Completer completer = completer(this.store, false);
		LocalAttempt reaped = claim(RetryPolicy.DEFAULT);
		LocalAttempt held = claim(RetryPolicy.DEFAULT);
		// the first reservation expires and a rescuer records it as failed (§9.2)
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		this.store.heartbeat(NODE, List.of(held.id()), this.store.now().plus(VISIBILITY));
		assertThat(this.store.reapExpired(10, (job) -> this.planner.planTimeout(job, this.store.now()).attemptFailure()))
			.hasSize(1);
		completer.submit(completion(reaped));
		completer.submit(completion(held));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 2);
		assertThat(this.written).containsExactly(Map.entry(reaped.id(), false), Map.entry(held.id(), true));
		assertThat(this.listener.of(reaped.id())).isEmpty();
		assertThat(this.listener.kinds(held.id())).containsExactly("completed");
		assertThat(this.store.get(reaped.id()).state()).isEqualTo(JobState.AVAILABLE);
	}

	@Test
	void failingListenerDoesNotStopTheCompleter() {
		AtomicBoolean thrown = new AtomicBoolean();
		RecordingListener throwingOnce = new RecordingListener() {

			@Override
			public void completed(Job job, Duration handlerDuration) {
				super.completed(job, handlerDuration);
				if (thrown.compareAndSet(false, true)) {
					throw new IllegalStateException("listener bug");
				}
			}

		};
		Completer completer = new Completer(this.store, false, new OutcomeEvents(throwingOnce),
				(outcome, accepted) -> this.written.add(Map.entry(outcome.job().id(), accepted)), NODE);
		this.completers.add(completer);
		LocalAttempt a = claim(RetryPolicy.DEFAULT);
		LocalAttempt b = claim(RetryPolicy.DEFAULT);
		completer.submit(completion(a));
		completer.start();
		await().atMost(TIMEOUT).until(() -> this.written.size() == 1);
		completer.submit(completion(b));

		await().atMost(TIMEOUT).until(() -> this.written.size() == 2);
		assertThat(thrown).isTrue();
		assertThat(throwingOnce.kinds(b.id())).containsExactly("completed");
		assertThat(this.store.writes).containsExactly(List.of(a.id()), List.of(b.id()));
	}

	@Test
	void stopWritesWhatIsQueuedFirst() throws Exception {
		GatedStore gated = new GatedStore(this.store);
		Completer completer = new Completer(gated, false, new OutcomeEvents(this.listener),
				(outcome, accepted) -> this.written.add(Map.entry(outcome.job().id(), accepted)), NODE);
		LocalAttempt first = claim(RetryPolicy.DEFAULT);
		LocalAttempt queued1 = claim(RetryPolicy.DEFAULT);
		LocalAttempt queued2 = claim(RetryPolicy.DEFAULT);
		completer.submit(completion(first));
		completer.start();
		assertThat(gated.entered.await(10, TimeUnit.SECONDS)).isTrue();
		completer.submit(completion(queued1));
		completer.submit(failure(queued2, JobError.of("external.timeout", "slow")));

		Thread stopper = new Thread(() -> completer.stop(TIMEOUT), "test-stopper");
		stopper.start();
		// stop() has asked the completer to end and waits for it
		await().atMost(TIMEOUT).until(() -> stopper.getState() == Thread.State.TIMED_WAITING);
		gated.release.countDown();
		stopper.join(TIMEOUT.toMillis());

		assertThat(stopper.isAlive()).isFalse();
		assertThat(this.store.writes).containsExactly(List.of(first.id()), List.of(queued1.id()),
				List.of(queued2.id()));
		assertThat(this.written).extracting(Map.Entry::getKey).containsExactly(first.id(), queued1.id(), queued2.id());
		assertThat(this.listener.events).hasSize(3);
	}

	@Test
	void stopGivesUpAtItsTimeoutWhileTheStoreKeepsFailing() {
		Completer completer = completer(this.store, false);
		LocalAttempt attempt = claim(RetryPolicy.DEFAULT);
		IntStream.range(0, 1000)
			.forEach((i) -> this.store.writeFailures.add(new FakeWorkerStore.TransientFailure("database down")));
		completer.submit(completion(attempt));
		completer.start();
		await().atMost(TIMEOUT).until(() -> this.store.writes.size() >= 2);

		long started = System.nanoTime();
		completer.stop(Duration.ofMillis(300));

		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(this.written).isEmpty();
		assertThat(this.listener.events).isEmpty();
		assertThat(this.store.get(attempt.id()).state()).isEqualTo(JobState.ACTIVE);
	}

	/**
	 * A stale attempt and the job's next attempt, both claimed by this node, finishing in one
	 * batch: the store writes only the current attempt, but reports written ids, so the stale
	 * one is reported accepted and its event told although its outcome was not stored.
	 */
	@Test
	void staleAttemptIsNotReportedAcceptedWhenTheNextAttemptOfItsJobIsWrittenInTheSameBatch() {
		RetryPolicy quick = RetryPolicy.builder().initialInterval(Duration.ofSeconds(1)).jitter(false).build().effective();
		LocalAttempt stale = claim(quick);
		this.store.clock.advance(VISIBILITY.plusSeconds(1));
		this.store.reapExpired(10, (job) -> this.planner.planTimeout(job, this.store.now()).attemptFailure());
		this.store.clock.advance(Duration.ofSeconds(1));
		Job next = this.store.claim(NODE, "default", Map.of(TYPE, VISIBILITY), 1).get(0);
		assertThat(next.id()).isEqualTo(stale.id());
		assertThat(next.attempt()).isEqualTo(2);
		LocalAttempt current = attempt(next);
		Completer completer = completer(this.store, false);
		completer.submit(completion(stale));
		completer.submit(completion(current));
		completer.start();

		await().atMost(TIMEOUT).until(() -> this.written.size() == 2);
		assertThat(this.written).containsExactly(Map.entry(stale.id(), false), Map.entry(current.id(), true));
		assertThat(this.listener.events).extracting((event) -> event.job().attempt()).containsExactly(2);
	}

	private Completer completer(WorkerStore store, boolean deleteCompleted) {
		Completer completer = new Completer(store, deleteCompleted, new OutcomeEvents(this.listener),
				(outcome, accepted) -> this.written.add(Map.entry(outcome.job().id(), accepted)), NODE);
		this.completers.add(completer);
		return completer;
	}

	/** A job of {@code policy} added and claimed by {@link #NODE}, as the attempt holding it. */
	private LocalAttempt claim(RetryPolicy policy) {
		this.store.add(TYPE, "default", 0, policy, this.store.now());
		List<Job> claimed = this.store.claim(NODE, "default", Map.of(TYPE, VISIBILITY), 1);
		assertThat(claimed).hasSize(1);
		return attempt(claimed.get(0));
	}

	private List<LocalAttempt> claimMany(int count) {
		IntStream.range(0, count).forEach((i) -> this.store.add(TYPE, "default"));
		return this.store.claim(NODE, "default", Map.of(TYPE, VISIBILITY), count)
			.stream()
			.map(this::attempt)
			.toList();
	}

	private LocalAttempt attempt(Job job) {
		HandlerRegistration registration = new HandlerRegistration(TYPE, "default", 0, VISIBILITY, (attempt) -> {
		}, (job1, failure) -> JobError.of(failure), RetryPolicy.DEFAULT);
		return new LocalAttempt(job, registration, VISIBILITY, "default", this.store);
	}

	private static Completer.Outcome completion(LocalAttempt attempt) {
		return new Completer.Outcome(attempt, Duration.ofMillis(5), null);
	}

	private Completer.Outcome failure(LocalAttempt attempt, JobError error) {
		return new Completer.Outcome(attempt, Duration.ofMillis(5),
				this.planner.plan(attempt.job(), error, this.store.now()));
	}

	private static List<String> ids(List<LocalAttempt> attempts) {
		return attempts.stream().map(LocalAttempt::id).toList();
	}

	/** Holds up the first write until {@link #release}d, after telling it {@link #entered}. */
	static final class GatedStore extends ForwardingWorkerStore {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private final AtomicBoolean gated = new AtomicBoolean(true);

		GatedStore(FakeWorkerStore delegate) {
			super(delegate);
		}

		@Override
		public Set<String> complete(List<Job> jobs, boolean delete) {
			gate();
			return super.complete(jobs, delete);
		}

		@Override
		public Set<String> fail(List<AttemptFailure> failures) {
			gate();
			return super.fail(failures);
		}

		private void gate() {
			if (this.gated.compareAndSet(true, false)) {
				this.entered.countDown();
				try {
					this.release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	/** Fails, not transiently, every write that includes the poisoned job; records every write's ids. */
	static final class PoisonedStore extends ForwardingWorkerStore {

		final List<List<String>> calls = new CopyOnWriteArrayList<>();

		private final String poisoned;

		PoisonedStore(FakeWorkerStore delegate, String poisoned) {
			super(delegate);
			this.poisoned = poisoned;
		}

		@Override
		public Set<String> complete(List<Job> jobs, boolean delete) {
			check(jobs);
			return super.complete(jobs, delete);
		}

		@Override
		public Set<String> fail(List<AttemptFailure> failures) {
			check(failures.stream().map(AttemptFailure::job).toList());
			return super.fail(failures);
		}

		private void check(List<Job> jobs) {
			List<String> ids = jobs.stream().map(Job::id).toList();
			this.calls.add(ids);
			if (ids.contains(this.poisoned)) {
				throw new IllegalArgumentException("value too long for column");
			}
		}

	}

}

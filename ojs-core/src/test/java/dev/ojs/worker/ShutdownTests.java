package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Graceful shutdown (ojs-graceful-shutdown.md §5): quiet, drain within the grace period,
 * then attempts still running are failed with error type {@code shutdown} and retried per
 * policy; claimed attempts that never started go back without consuming the attempt.
 */
class ShutdownTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RecordingListener listener = new RecordingListener();

	@Test
	void claimedAttemptsThatHaveNotStartedAreReleasedWithoutConsumingTheAttempt() {
		Job unstarted = claimOne("t");
		Job running = claimOne("t");
		AtomicBoolean ran = new AtomicBoolean();
		HandlerRegistration registration = new HandlerRegistration("t", "default", 0, null, (attempt) -> ran.set(true),
				null, RetryPolicy.DEFAULT);
		LocalAttempts attempts = new LocalAttempts();
		LocalAttempt waiting = attempts.track(
				new LocalAttempt(unstarted, registration, Duration.ofMinutes(1), "default", this.store));
		LocalAttempt busy = attempts.track(attempt(running));
		assertThat(busy.transition(LocalAttempt.CLAIMED, LocalAttempt.RUNNING)).isTrue();

		assertThat(attempts.releaseUnstarted(this.store)).isEqualTo(1);

		Job released = this.store.get(unstarted.id());
		assertThat(released.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(released.attempt()).as("attempt not consumed").isZero();
		assertThat(released.lockedBy()).isNull();
		assertThat(attempts.all()).containsExactly(busy);
		assertThat(this.store.get(running.id()).state()).isEqualTo(JobState.ACTIVE);
		// its handler thread, when it gets to it, does not run the handler and frees the slot
		List<ClaimGroup> groups = ClaimGroup.of(List.of(registration), Duration.ofMinutes(1));
		Slots slots = new Slots(Map.of("default", 1), groups);
		assertThat(slots.take("default", 1)).isOne();
		slots.started("default", 1);
		assertThat(slots.free("default")).isZero();
		Completer completer = new Completer(this.store, false, new OutcomeEvents(this.listener), (outcome, written) -> {
		}, "node-1");
		AttemptRunner executor = new AttemptRunner(this.store,
				new FailurePlanner(RetryDelayOverride.NONE, WorkerSettings.DEFAULT_ERROR_HISTORY,
				TestPolicies.jobsOwn()), completer, attempts, slots);
		executor.run(waiting);
		assertThat(ran).isFalse();
		assertThat(slots.free("default")).isEqualTo(1);
		assertThat(slots.running()).isZero();
	}

	@Test
	void aHandlerThatFinishesWithinTheGracePeriodCompletes() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		String id = this.store.add("t", "default").id();
		Worker worker = worker(Duration.ofSeconds(5), (attempt) -> {
			started.countDown();
			Thread.sleep(300);
		});
		worker.start();
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		worker.stop();
		assertThat(this.store.get(id).state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.listener.kinds(id)).containsExactly("completed");
	}

	@Test
	void aHandlerStillRunningAfterTheGracePeriodIsFailedAsShutdownAndInterrupted() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		String id = this.store.add("t", "default").id();
		Worker worker = worker(Duration.ofMillis(200), (attempt) -> {
			started.countDown();
			try {
				Thread.sleep(60_000);
			}
			catch (InterruptedException ex) {
				interrupted.countDown();
				throw ex;
			}
		});
		worker.start();
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		worker.stop();
		Job job = this.store.get(id);
		assertThat(job.state()).as("retried per policy, possibly by another node").isEqualTo(JobState.RETRYABLE);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.lastError().type()).isEqualTo(FailurePlanner.SHUTDOWN);
		assertThat(this.listener.kinds(id)).containsExactly("retrying");
		assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
		// the interrupted handler's late outcome is not written again
		await().atMost(TIMEOUT).until(() -> worker.status().activeByQueue().get("default") == 0);
		assertThat(this.store.get(id).state()).isEqualTo(JobState.RETRYABLE);
		assertThat(this.listener.kinds(id)).containsExactly("retrying");
	}

	@Test
	void aStoppedWorkerStartsAgain() {
		Worker worker = worker(Duration.ofSeconds(1), (attempt) -> {
		});
		worker.start();
		worker.stop();
		assertThat(worker.isRunning()).isFalse();
		String id = this.store.add("t", "default").id();
		worker.start();
		try {
			await().atMost(TIMEOUT).until(() -> this.store.get(id).state() == JobState.COMPLETED);
		}
		finally {
			worker.stop();
		}
	}

	@Test
	void aStartDuringAStopWaitsForTheStopToFinish() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		String first = this.store.add("t", "default").id();
		Worker worker = worker(Duration.ofSeconds(10), (attempt) -> {
			if (attempt.job().id().equals(first)) {
				started.countDown();
				release.await(10, TimeUnit.SECONDS);
			}
		});
		worker.start();
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> stopping = CompletableFuture.runAsync(worker::stop);
		await().atMost(TIMEOUT).until(() -> !worker.isRunning());
		CompletableFuture<Void> starting = CompletableFuture.runAsync(worker::start);
		try {
			// the stop drains the running handler; the start waits for it rather than
			// starting pollers next to the ones stopping
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !starting.isDone());
		}
		finally {
			release.countDown();
		}
		stopping.get(20, TimeUnit.SECONDS);
		starting.get(20, TimeUnit.SECONDS);
		try {
			assertThat(worker.isRunning()).isTrue();
			assertThat(this.store.get(first).state()).isEqualTo(JobState.COMPLETED);
			String second = this.store.add("t", "default").id();
			await().atMost(TIMEOUT).until(() -> this.store.get(second).state() == JobState.COMPLETED);
		}
		finally {
			worker.stop();
		}
	}

	private Worker worker(Duration gracePeriod, JobHandler handler) {
		return new Worker(this.store, List.of(new HandlerRegistration("t", "default", 0, null, handler, null, RetryPolicy.DEFAULT)),
				new WorkerSettings("node-1", Map.of("default", 2), Duration.ofMillis(50), Duration.ofMinutes(1),
						gracePeriod, RetentionSettings.defaults()),
				this.listener, RetryDelayOverride.NONE);
	}

	private Job claimOne(String type) {
		String id = this.store.add(type, "default").id();
		return this.store.claim("node-1", "default", Map.of(type, Duration.ofMinutes(1)), 10)
			.stream()
			.filter((job) -> job.id().equals(id))
			.findFirst()
			.orElseThrow();
	}

	private LocalAttempt attempt(Job job) {
		return new LocalAttempt(job, new HandlerRegistration(job.type(), "default", 0, null, (attempt) -> {
		}, null, RetryPolicy.DEFAULT), Duration.ofMinutes(1), "default", this.store);
	}

}

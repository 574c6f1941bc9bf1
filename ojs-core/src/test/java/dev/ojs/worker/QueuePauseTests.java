package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Paused queues (ojs-queue-config.md §5.1, ojs-admin-api.md §6.3/6.4) on an in-memory store:
 * the {@link PauseWatcher} reads them before the pollers start and every poll interval, a
 * paused queue's poller claims nothing while its jobs wait, and a resume wakes it.
 */
class QueuePauseTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

	/** Scheduling slack on a busy machine: thread wake-ups, the read's own time. */
	private static final Duration TOLERANCE = Duration.ofMillis(400);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.workers.forEach(Worker::stop);
	}

	@Test
	void queuePausedBeforeStartIsNeverClaimedUntilResumed() {
		this.store.paused.add("default");
		Job job = this.store.add("t", "default");
		start(Map.of("default", 2, "other", 2));
		Job other = this.store.add("t", "other");

		// the other queue runs; the paused one waits, its poller re-reading the state
		awaitCompleted(other);
		int reads = this.store.pauseReads.get();
		await().atMost(TIMEOUT).until(() -> this.store.pauseReads.get() >= reads + 3);
		assertThat(this.store.get(job.id()).state()).isEqualTo(JobState.AVAILABLE);

		long resumedAt = System.nanoTime();
		this.store.paused.remove("default");
		awaitCompleted(job);
		assertThat(Duration.ofNanos(System.nanoTime() - resumedAt)).isLessThan(POLL_INTERVAL.plus(TOLERANCE));
	}

	@Test
	void pauseTakesEffectWithinOnePollInterval() throws InterruptedException {
		start(Map.of("default", 4));
		awaitCompleted(this.store.add("t", "default"));

		long pausedAt = System.nanoTime();
		this.store.paused.add("default");
		// jobs keep arriving: enqueues into a paused queue succeed (§6.3)
		long end = pausedAt + POLL_INTERVAL.plus(TOLERANCE).multipliedBy(2).toNanos();
		while (System.nanoTime() < end) {
			this.store.add("t", "default");
			Thread.sleep(10);
		}

		long deadline = pausedAt + POLL_INTERVAL.plus(TOLERANCE).toNanos();
		assertThat(this.store.claimedAtNanos).allSatisfy((at) -> assertThat(at).isLessThan(deadline));
		List<Job> waiting = this.store.all().stream().filter((job) -> job.state() == JobState.AVAILABLE).toList();
		assertThat(waiting).isNotEmpty();

		this.store.paused.remove("default");
		await().atMost(TIMEOUT)
			.until(() -> waiting.stream().allMatch((job) -> this.store.get(job.id()).state() == JobState.COMPLETED));
	}

	@Test
	void failedReadKeepsTheStateLastRead() {
		this.store.paused.add("default");
		start(Map.of("default", 2));
		Job job = this.store.add("t", "default");
		int reads = this.store.pauseReads.get();
		this.store.pauseReadFailures.add(new IllegalStateException("database down"));
		this.store.pauseReadFailures.add(new IllegalStateException("database down"));

		await().atMost(TIMEOUT).until(() -> this.store.pauseReads.get() >= reads + 3);
		assertThat(this.store.claimLimits).isEmpty();
		assertThat(this.store.get(job.id()).state()).isEqualTo(JobState.AVAILABLE);
	}

	@Test
	void failedReadAtStartClaimsUntilTheNextRead() {
		this.store.pauseReadFailures.add(new IllegalStateException("database down"));
		start(Map.of("default", 2));
		awaitCompleted(this.store.add("t", "default"));
		this.store.paused.add("default");
		int reads = this.store.pauseReads.get();
		// the read after the one in progress (if any) has been applied
		await().atMost(TIMEOUT).until(() -> this.store.pauseReads.get() >= reads + 2);
		int claims = this.store.claimLimits.size();
		Job job = this.store.add("t", "default");

		await().atMost(TIMEOUT).until(() -> this.store.pauseReads.get() >= reads + 5);
		assertThat(this.store.claimLimits).hasSize(claims);
		assertThat(this.store.get(job.id()).state()).isEqualTo(JobState.AVAILABLE);
	}

	private void awaitCompleted(Job job) {
		await().atMost(TIMEOUT).until(() -> this.store.get(job.id()).state() == JobState.COMPLETED);
	}

	private void start(Map<String, Integer> queues) {
		HandlerRegistration handler = new HandlerRegistration("t", "default", 0, null, (attempt) -> {
		}, null, RetryPolicy.DEFAULT);
		Worker worker = new Worker(this.store, List.of(handler), new WorkerSettings("node-1", queues, POLL_INTERVAL,
				Duration.ofMinutes(1), Duration.ofSeconds(2), RetentionSettings.defaults()), null,
				RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cancelling a running job (ojs-core.md §7.6, ojs-admin-api.md §7.3) on an in-memory store:
 * the {@link CancelWatcher} tells the handler within one poll interval, the handler is
 * interrupted only when its registration asks, the job stays {@code cancelled} whatever the
 * handler does next (no outcome written, no retry, no event), and its slot is freed.
 */
class CancelTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

	/** Scheduling slack on a busy machine: thread wake-ups, the check's own time. */
	private static final Duration TOLERANCE = Duration.ofMillis(400);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RecordingListener listener = new RecordingListener();

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.workers.forEach(Worker::stop);
	}

	@Test
	void runningHandlerSeesTheCancellationWithinOnePollIntervalAndIsNotInterrupted() {
		AtomicLong seenAt = new AtomicLong();
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch started = new CountDownLatch(1);
		Job job = this.store.add("t", "default");
		start(handler(false, (attempt) -> {
			started.countDown();
			long deadline = System.nanoTime() + TIMEOUT.toNanos();
			while (!attempt.isCancelled() && System.nanoTime() < deadline) {
				interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
				LockSupport.parkNanos(1_000_000);
			}
			interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
			seenAt.set(System.nanoTime());
		}));
		awaitLatch(started);
		Job next = this.store.add("t", "default");

		long cancelledAt = System.nanoTime();
		assertThat(this.store.cancel(job.id())).isTrue();

		await().atMost(TIMEOUT).until(() -> seenAt.get() != 0);
		assertThat(Duration.ofNanos(seenAt.get() - cancelledAt)).isLessThan(POLL_INTERVAL.plus(TOLERANCE));
		assertThat(interrupted).isFalse();
		assertCancelledAndNothingRecorded(job, next);
	}

	@Test
	void handlerThatAsksIsInterrupted() {
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch returned = new CountDownLatch(1);
		Job job = this.store.add("t", "default");
		start(handler(true, (attempt) -> {
			started.countDown();
			try {
				Thread.sleep(TIMEOUT.toMillis());
			}
			catch (InterruptedException ex) {
				interrupted.set(attempt.isCancelled());
				// a failure the policy would retry: it is not recorded
				throw new IllegalStateException("stopped", ex);
			}
			finally {
				returned.countDown();
			}
		}));
		awaitLatch(started);
		Job next = this.store.add("t", "default");

		this.store.cancel(job.id());

		awaitLatch(returned);
		assertThat(interrupted).isTrue();
		assertCancelledAndNothingRecorded(job, next);
	}

	@Test
	void lateOutcomeIsRejectedWhenTheWorkerHasNotNoticedYet() {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Job job = this.store.add("t", "default");
		// the worker never learns of the cancellation: the outcome reaches the store, whose guard rejects it
		WorkerStore unaware = new ForwardingWorkerStore(this.store) {

			@Override
			public Set<String> cancelled(List<Job> jobs) {
				return Set.of();
			}

		};
		start(unaware, handler(false, (attempt) -> {
			started.countDown();
			release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}));
		awaitLatch(started);
		Job next = this.store.add("t", "default");

		this.store.cancel(job.id());
		release.countDown();

		await().atMost(TIMEOUT).until(() -> this.store.writes.stream().anyMatch((ids) -> ids.contains(job.id())));
		Job stored = this.store.get(job.id());
		assertThat(stored.state()).isEqualTo(JobState.CANCELLED);
		assertThat(stored.completedAt()).isNull();
		assertThat(this.listener.of(job.id())).isEmpty();
		assertRuns(next);
	}

	@Test
	void cancelledJobIsNotClaimed() {
		Job job = this.store.add("t", "default");
		this.store.cancel(job.id());
		Job other = this.store.add("t", "default");
		start(handler(false, (attempt) -> {
		}));
		await().atMost(TIMEOUT).until(() -> this.store.get(other.id()).state() == JobState.COMPLETED);
		assertThat(this.store.get(job.id()).state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.store.get(job.id()).attempt()).isZero();
	}

	/**
	 * The job is {@code cancelled}, never written by this attempt, not retried, no event was
	 * published, and the queue's only slot runs the next job.
	 */
	private void assertCancelledAndNothingRecorded(Job job, Job next) {
		assertRuns(next);
		Job stored = this.store.get(job.id());
		assertThat(stored.state()).isEqualTo(JobState.CANCELLED);
		assertThat(stored.attempt()).isOne();
		assertThat(stored.errors()).isEmpty();
		assertThat(stored.completedAt()).isNull();
		assertThat(this.store.writes).noneSatisfy((ids) -> assertThat(ids).contains(job.id()));
		assertThat(this.listener.of(job.id())).isEmpty();
	}

	/** The queue's only slot, which the cancelled attempt held, runs {@code next}. */
	private void assertRuns(Job next) {
		await().atMost(TIMEOUT).until(() -> this.store.get(next.id()).state() == JobState.COMPLETED);
	}

	/** A handler of type {@code t} that runs {@code body} for the first job only, then completes. */
	private static HandlerRegistration handler(boolean interruptOnCancel, JobHandler body) {
		AtomicBoolean first = new AtomicBoolean(true);
		return new HandlerRegistration("t", "default", 0, null, (attempt) -> {
			if (first.getAndSet(false)) {
				body.handle(attempt);
			}
		}, null, RetryPolicy.DEFAULT, interruptOnCancel);
	}

	private void start(HandlerRegistration handler) {
		start(this.store, handler);
	}

	/** A worker with one slot. */
	private void start(WorkerStore store, HandlerRegistration handler) {
		Worker worker = new Worker(store, List.of(handler),
				new WorkerSettings("node-1", Map.of("default", 1), POLL_INTERVAL, Duration.ofMinutes(1),
						Duration.ofSeconds(2), RetentionSettings.defaults()),
				this.listener, RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
	}

	private static void awaitLatch(CountDownLatch latch) {
		await().atMost(TIMEOUT).until(() -> latch.getCount() == 0);
	}

}

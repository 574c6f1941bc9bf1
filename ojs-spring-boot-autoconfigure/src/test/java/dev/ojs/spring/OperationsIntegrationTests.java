package dev.ojs.spring;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.spring.IntegrationJobs.EventRecorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The operator's API in a full application: {@link OjsQueues} pauses and resumes queues
 * (ojs-queue-config.md §5.1, ojs-admin-api.md §6.3/6.4), and {@link OjsTemplate#cancel}
 * cancels jobs (ojs-core.md §7.6, ojs-admin-api.md §7.3), running ones included: the
 * handler sees {@link JobContext#isCancelled()}, or is interrupted with
 * {@link OjsJob#interruptOnCancel()}. Subclasses choose the database.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, OperationsIntegrationTests.OperationJobs.class })
@DirtiesContext
abstract class OperationsIntegrationTests {

	static final String QUEUE = "ops";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	/** {@code ojs.worker.poll-interval} of the test application. */
	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	@Autowired
	private OjsQueues queues;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private OperationJobs jobs;

	@Autowired
	private EventRecorder events;

	@AfterEach
	void resume() {
		this.queues.resume(QUEUE);
	}

	@Test
	void jobsOfAPausedQueueWaitUntilItIsResumed() {
		QueueState paused = this.queues.pause(QUEUE);
		assertThat(paused.name()).isEqualTo(QUEUE);
		assertThat(paused.paused()).isTrue();
		assertThat(paused.pausedAt()).isNotNull();
		assertThat(this.queues.isPaused(QUEUE)).isTrue();

		String id = this.template.enqueue("it.ops.record", "waits");
		await().during(POLL_INTERVAL.multipliedBy(10)).atMost(TIMEOUT)
			.until(() -> this.template.getJob(id).orElseThrow().state() == JobState.AVAILABLE);
		assertThat(this.jobs.ran).doesNotContainKey(id);
		assertThat(this.queues.queues()).filteredOn((queue) -> queue.name().equals(QUEUE))
			.singleElement()
			.satisfies((queue) -> {
				assertThat(queue.paused()).isTrue();
				assertThat(queue.pausedAt()).isEqualTo(paused.pausedAt());
				assertThat(queue.count(JobState.AVAILABLE)).isEqualTo(1);
			});

		QueueState resumed = this.queues.resume(QUEUE);
		assertThat(resumed).isEqualTo(QueueState.active(QUEUE));
		assertThat(this.queues.isPaused(QUEUE)).isFalse();
		awaitState(id, JobState.COMPLETED);
		assertThat(this.jobs.ran).containsKey(id);
	}

	@Test
	void aQueueThatNeverHeldAJobCanBePausedAndIsListedWithZeroCounts() {
		this.queues.pause("ops.never-used");
		assertThat(this.queues.queues()).filteredOn((queue) -> queue.name().equals("ops.never-used"))
			.singleElement()
			.satisfies((queue) -> {
				assertThat(queue.paused()).isTrue();
				assertThat(queue.counts()).hasSize(JobState.values().length).allSatisfy((state, count) -> assertThat(count).isZero());
			});
		this.queues.resume("ops.never-used");
		assertThat(this.queues.isPaused("ops.never-used")).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> this.queues.pause(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> this.queues.pause("q".repeat(256)));
	}

	@Test
	void runningHandlerSeesTheCancellationAndItsCompletionIsNotApplied() {
		String id = this.template.enqueue("it.ops.cooperative", "c");
		awaitStarted(id);

		assertThat(this.template.cancel(id)).isTrue();
		JobInfo cancelled = this.template.getJob(id).orElseThrow();
		assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
		assertThat(cancelled.discardedAt()).isNotNull();

		await().atMost(TIMEOUT).until(() -> this.jobs.sawCancel.containsKey(id));
		assertThat(this.jobs.sawCancel.get(id)).as("interrupted").isFalse();
		assertStaysCancelled(id, cancelled);
	}

	@Test
	void handlerThatAsksIsInterruptedAndItsFailureIsNotRetried() {
		String id = this.template.enqueue("it.ops.interruptible", "i");
		awaitStarted(id);

		assertThat(this.template.cancel(id)).isTrue();
		JobInfo cancelled = this.template.getJob(id).orElseThrow();

		await().atMost(TIMEOUT).until(() -> this.jobs.sawCancel.containsKey(id));
		assertThat(this.jobs.sawCancel.get(id)).as("interrupted").isTrue();
		assertStaysCancelled(id, cancelled);
	}

	@Test
	void scheduledJobsAreCancelledAtOnceAndEndedJobsAreNot() {
		String scheduled = this.template.enqueue("it.ops.record", List.of("later"),
				JobOptions.builder().delay(Duration.ofHours(1)).build());
		assertThat(this.template.cancel(scheduled)).isTrue();
		assertThat(this.template.getJob(scheduled).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.template.cancel(scheduled)).isFalse();

		String done = this.template.enqueue("it.ops.record", "done");
		awaitState(done, JobState.COMPLETED);
		assertThat(this.template.cancel(done)).isFalse();
		assertThat(this.template.getJob(done).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
		assertThat(this.template.cancel("01890a5d-ac96-774b-bcce-b302099a8057")).isFalse();
	}

	/** Several poll intervals later the job is still as it was cancelled, and no event was published for it. */
	private void assertStaysCancelled(String id, JobInfo cancelled) {
		await().during(POLL_INTERVAL.multipliedBy(6)).atMost(TIMEOUT)
			.until(() -> this.template.getJob(id).orElseThrow().state() == JobState.CANCELLED);
		JobInfo stored = this.template.getJob(id).orElseThrow();
		assertThat(stored).isEqualTo(cancelled);
		assertThat(stored.attempt()).isOne();
		assertThat(stored.errors()).isEmpty();
		assertThat(this.events.of(id)).isEmpty();
	}

	private void awaitStarted(String id) {
		await().atMost(TIMEOUT).until(() -> this.jobs.started.contains(id));
	}

	private void awaitState(String id, JobState state) {
		await().atMost(TIMEOUT).until(() -> this.template.getJob(id).orElseThrow().state() == state);
	}

	/** Handlers in queue {@value #QUEUE}. */
	static class OperationJobs {

		/** Jobs whose handler ran. */
		final Map<String, Boolean> ran = new ConcurrentHashMap<>();

		/** Jobs whose handler started. */
		final Set<String> started = ConcurrentHashMap.newKeySet();

		/** Jobs whose handler saw its cancellation, and whether it was interrupted. */
		final Map<String, Boolean> sawCancel = new ConcurrentHashMap<>();

		@OjsJob(type = "it.ops.record", queue = QUEUE)
		void record(String value, JobContext context) {
			this.ran.put(context.id(), true);
		}

		@OjsJob(type = "it.ops.cooperative", queue = QUEUE)
		void cooperative(String value, JobContext context) {
			this.started.add(context.id());
			long deadline = System.nanoTime() + TIMEOUT.toNanos();
			while (!context.isCancelled() && System.nanoTime() < deadline) {
				LockSupport.parkNanos(1_000_000);
			}
			if (context.isCancelled()) {
				this.sawCancel.put(context.id(), Thread.currentThread().isInterrupted());
			}
		}

		@OjsJob(type = "it.ops.interruptible", queue = QUEUE, interruptOnCancel = true, maxAttempts = 5)
		void interruptible(String value, JobContext context) throws InterruptedException {
			this.started.add(context.id());
			try {
				Thread.sleep(TIMEOUT.toMillis());
			}
			catch (InterruptedException ex) {
				this.sawCancel.put(context.id(), context.isCancelled());
				throw ex;
			}
		}

	}

}

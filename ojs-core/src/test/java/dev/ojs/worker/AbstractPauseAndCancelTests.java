package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.DatabaseTests;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Queue pause and resume (ojs-queue-config.md §5.1, ojs-admin-api.md §6.3/6.4) and job
 * cancellation (ojs-core.md §7.6, ojs-admin-api.md §7.3) across nodes sharing one table: an
 * operator's store ("node A") pauses, resumes and cancels; a worker on a store of its own
 * ("node B") follows within one poll interval. Run against each database by a subclass.
 */
abstract class AbstractPauseAndCancelTests extends DatabaseTests {

	static final String TYPE = "test.job";

	static final String QUEUE = "work";

	static final Duration TIMEOUT = Duration.ofSeconds(30);

	static final Duration POLL_INTERVAL = Duration.ofMillis(300);

	/** Scheduling slack on a busy machine: thread wake-ups, the check's query, claim to handler start. */
	static final Duration TOLERANCE = Duration.ofMillis(500);

	/** The operator's node. */
	JdbcJobStore operator;

	final RecordingListener listener = new RecordingListener();

	/** When each job's handler started ({@link System#nanoTime()}). */
	final Map<String, Long> startedAt = new ConcurrentHashMap<>();

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() {
		this.schema.clear();
		new JdbcTemplate(this.schema.dataSource()).update("DELETE FROM " + this.schema.settings().queuesTableName());
		this.operator = this.schema.newStore();
		this.listener.events.clear();
		this.startedAt.clear();
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
		this.workers.clear();
	}

	@Test
	void pauseOnOneNodeStopsClaimsOnAnotherWithinOnePollInterval() throws InterruptedException {
		startNode(recordingStarts());
		awaitState(enqueue(), JobState.COMPLETED);

		this.operator.pauseQueue(QUEUE);
		long pausedAt = System.nanoTime();
		// enqueues into a paused queue succeed (§6.3) while jobs keep arriving
		long end = pausedAt + POLL_INTERVAL.plus(TOLERANCE).multipliedBy(2).toNanos();
		List<String> ids = new CopyOnWriteArrayList<>();
		while (System.nanoTime() < end) {
			ids.add(enqueue());
			Thread.sleep(20);
		}

		long deadline = pausedAt + POLL_INTERVAL.plus(TOLERANCE).toNanos();
		assertThat(this.startedAt.values()).allSatisfy((at) -> assertThat(at).isLessThan(deadline));
		List<String> waiting = ids.stream()
			.filter((id) -> this.operator.find(id).orElseThrow().state() == JobState.AVAILABLE)
			.toList();
		assertThat(waiting).isNotEmpty();

		long resumedAt = System.nanoTime();
		this.operator.resumeQueue(QUEUE);
		await().atMost(TIMEOUT).until(() -> waiting.stream()
			.allMatch((id) -> this.operator.find(id).orElseThrow().state() == JobState.COMPLETED));
		long firstStart = waiting.stream().mapToLong(this.startedAt::get).min().orElseThrow();
		assertThat(Duration.ofNanos(firstStart - resumedAt)).isLessThan(POLL_INTERVAL.plus(TOLERANCE));
	}

	@Test
	void pauseOfAQueueThatNeverHeldAJobSurvivesRestartsAndItsJobsWait() {
		QueueState paused = this.operator.pauseQueue(QUEUE);
		assertThat(paused.paused()).isTrue();
		Worker first = startNode(recordingStarts());
		first.stop();
		// a restarted node, on a new store: the pause is in the database
		startNode(recordingStarts());
		String id = enqueue();

		await().during(POLL_INTERVAL.multipliedBy(4)).atMost(TIMEOUT)
			.until(() -> this.operator.find(id).orElseThrow().state() == JobState.AVAILABLE);
		assertThat(this.startedAt).isEmpty();
		assertThat(this.operator.queueStates()).containsExactly(paused);

		long resumedAt = System.nanoTime();
		this.operator.resumeQueue(QUEUE);
		awaitState(id, JobState.COMPLETED);
		assertThat(Duration.ofNanos(this.startedAt.get(id) - resumedAt)).isLessThan(POLL_INTERVAL.plus(TOLERANCE));
	}

	@Test
	void runningJobCancelledOnAnotherNodeSeesItAndEndsCancelledWithoutRetry() {
		AtomicLong seenAt = new AtomicLong();
		CountDownLatch started = new CountDownLatch(1);
		startNode(1, handler(false, (attempt) -> {
			started.countDown();
			long deadline = System.nanoTime() + TIMEOUT.toNanos();
			while (!attempt.isCancelled() && System.nanoTime() < deadline) {
				LockSupport.parkNanos(1_000_000);
			}
			seenAt.set(System.nanoTime());
			// a late failure the policy would retry: not recorded
			throw new IllegalStateException("stopped after cancel");
		}));
		String id = enqueue(RetryPolicy.builder().maxAttempts(5).build());
		await().atMost(TIMEOUT).until(() -> started.getCount() == 0);

		long cancelledAt = System.nanoTime();
		assertThat(this.operator.cancel(id)).isTrue();
		Job cancelled = this.operator.find(id).orElseThrow();
		assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);

		await().atMost(TIMEOUT).until(() -> seenAt.get() != 0);
		assertThat(Duration.ofNanos(seenAt.get() - cancelledAt)).isLessThan(POLL_INTERVAL.plus(TOLERANCE));
		assertStaysCancelled(id, cancelled);
	}

	@Test
	void handlerThatAsksIsInterruptedAndItsLateCompletionIsNotApplied() {
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch returned = new CountDownLatch(1);
		startNode(1, handler(true, (attempt) -> {
			started.countDown();
			try {
				Thread.sleep(TIMEOUT.toMillis());
			}
			catch (InterruptedException ex) {
				interrupted.set(attempt.isCancelled());
			}
			finally {
				returned.countDown();
			}
			// returns normally: a completion, which is not applied
		}));
		String id = enqueue();
		await().atMost(TIMEOUT).until(() -> started.getCount() == 0);

		assertThat(this.operator.cancel(id)).isTrue();
		Job cancelled = this.operator.find(id).orElseThrow();

		await().atMost(TIMEOUT).until(() -> returned.getCount() == 0);
		assertThat(interrupted).isTrue();
		assertStaysCancelled(id, cancelled);
	}

	@Test
	void scheduledAndRetryableJobsAreCancelledAtOnceAndEndedOnesAreNot() {
		startNode(handler(false, (attempt) -> {
			if (attempt.job().argsJson().contains("fail")) {
				throw new IllegalStateException("retry me in an hour");
			}
		}));
		String scheduled = this.operator
			.insert(List.of(job(TYPE).queue(QUEUE).runAt(Instant.now().plus(Duration.ofHours(1))).build()))
			.get(0);
		String retryable = this.operator.insert(List.of(job(TYPE).queue(QUEUE).args("[\"fail\"]")
			.policy(RetryPolicy.builder()
				.maxAttempts(3)
				.initialInterval(Duration.ofHours(1))
				.maxInterval(Duration.ofHours(1))
				.build())
			.build())).get(0);
		awaitState(retryable, JobState.RETRYABLE);
		String completed = enqueue();
		awaitState(completed, JobState.COMPLETED);

		assertThat(this.operator.cancel(scheduled)).isTrue();
		assertThat(this.operator.cancel(retryable)).isTrue();
		assertThat(this.operator.find(scheduled).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.operator.find(retryable).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.operator.find(retryable).orElseThrow().attempt()).isOne();
		// terminal states have no way out (ojs-core.md §6): cancel answers false
		assertThat(this.operator.cancel(completed)).isFalse();
		assertThat(this.operator.cancel(scheduled)).isFalse();
		assertThat(this.operator.find(completed).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
	}

	/**
	 * The node's only slot, which the cancelled attempt held, runs the next job; and over
	 * several poll intervals the job stays as cancelled: no outcome, no retry, no event.
	 */
	private void assertStaysCancelled(String id, Job cancelled) {
		String next = this.operator.insert(List.of(job(TYPE).queue(QUEUE).args("[\"next\"]").build())).get(0);
		awaitState(next, JobState.COMPLETED);
		await().during(POLL_INTERVAL.multipliedBy(3)).atMost(TIMEOUT)
			.until(() -> this.operator.find(id).orElseThrow().state() == JobState.CANCELLED);
		Job stored = this.operator.find(id).orElseThrow();
		assertThat(stored).usingRecursiveComparison().isEqualTo(cancelled);
		assertThat(stored.attempt()).isOne();
		assertThat(stored.errors()).isEmpty();
		assertThat(this.listener.of(id)).isEmpty();
	}

	/** A handler that records when each job starts, and completes. */
	private HandlerRegistration recordingStarts() {
		return handler(false, (attempt) -> {
		});
	}

	/**
	 * A handler of {@link #TYPE} in {@link #QUEUE} that records each start, then runs
	 * {@code body} for jobs with the default (empty) args; others complete.
	 */
	private HandlerRegistration handler(boolean interruptOnCancel, JobHandler body) {
		return new HandlerRegistration(TYPE, QUEUE, 0, null, (attempt) -> {
			this.startedAt.putIfAbsent(attempt.job().id(), System.nanoTime());
			if (!attempt.job().argsJson().contains("next")) {
				body.handle(attempt);
			}
		}, null, RetryPolicy.DEFAULT, interruptOnCancel);
	}

	/** Starts a worker node with 4 slots on a store of its own. */
	private Worker startNode(HandlerRegistration handler) {
		return startNode(4, handler);
	}

	private Worker startNode(int concurrency, HandlerRegistration handler) {
		JdbcJobStore store = this.schema.newStore();
		Worker worker = new Worker(store, List.of(handler), new WorkerSettings(null, Map.of(QUEUE, concurrency), POLL_INTERVAL,
				Duration.ofSeconds(30), Duration.ofSeconds(2), RetentionSettings.defaults()), this.listener,
				RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private String enqueue() {
		return enqueue(RetryPolicy.DEFAULT);
	}

	private String enqueue(RetryPolicy policy) {
		return this.operator.insert(List.of(job(TYPE).queue(QUEUE).policy(policy).build())).get(0);
	}

	private void awaitState(String id, JobState state) {
		await().atMost(TIMEOUT).until(() -> this.operator.find(id).orElseThrow().state() == state);
	}

}

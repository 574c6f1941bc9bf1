package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.DatabaseTests;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job's own timeouts (issue 28): its visibility timeout reserves it for a fetch that names
 * none (L1-VIS-001), its execution timeout caps an external worker's reservation (L1-TMO-001)
 * and interrupts a handler in this process; an expired reservation is rescued within about a
 * second of its end (decision 1: a failed attempt, retried). Run against each database by a
 * subclass.
 */
abstract class AbstractJobTimeoutTests extends DatabaseTests {

	static final String QUEUE = "remote";

	static final String LOCAL_QUEUE = "local";

	static final String TYPE = "test.timeout";

	/** The rescuer runs every half second; plus a busy machine's slack. */
	static final Duration RESCUE_BOUND = Duration.ofMillis(1500);

	static final RetryPolicy RETRY_AFTER_1S = RetryPolicy.builder()
		.maxAttempts(3)
		.initialInterval(Duration.ofSeconds(1))
		.jitter(false)
		.build();

	JdbcJobStore producer;

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() {
		this.schema.clear();
		this.producer = this.schema.newStore();
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
		this.workers.clear();
	}

	@Test
	void jobsOwnVisibilityReservesItForAFetchThatNamesNoneThenTheRescuerRequeuesItL1Vis001() {
		Worker worker = startNode(handler(null, (attempt) -> {
		}));
		String id = enqueue(job(TYPE).queue(QUEUE).visibilityTimeout(Duration.ofSeconds(1))
			.policy(RetryPolicy.builder().initialInterval(Duration.ofMillis(500)).jitter(false).build()));
		RemoteAttempts remote = worker.remoteAttempts();

		Job claimed = remote.claim("w1", List.of(QUEUE), List.of(), Duration.ofMinutes(30), false, 1).get(0);

		assertThat(claimed.id()).isEqualTo(id);
		assertThat(claimed.lockedUntil()).isEqualTo(claimed.startedAt().plusSeconds(1));
		assertThat(this.producer.find(id).orElseThrow().lockedUntil()).isEqualTo(claimed.lockedUntil());
		Job rescued = awaitLeftActive(id, claimed.lockedUntil());
		// decision 1: a failed attempt of type visibility_timeout; its backoff from the claim
		// (0.5 s) ends before the reservation (1 s), so the job is due at once
		assertThat(rescued.lastError().type()).isEqualTo("visibility_timeout");
		assertThat(rescued.attempt()).isEqualTo(1);
		assertThat(rescued.state()).isEqualTo(JobState.AVAILABLE);
		Job again = remote.claim("w2", List.of(QUEUE), List.of(), Duration.ofMinutes(30), false, 1).get(0);
		assertThat(again.attempt()).isEqualTo(2);
		assertThat(remote.complete(id, "w2")).isInstanceOf(RemoteAttempts.Written.class);
		assertThat(this.producer.find(id).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
	}

	@Test
	void aFetchsOwnVisibilityWinsOverTheJobs() {
		Worker worker = startNode(handler(null, (attempt) -> {
		}));
		enqueue(job(TYPE).queue(QUEUE).visibilityTimeout(Duration.ofSeconds(1)));

		Job claimed = worker.remoteAttempts().claim("w1", List.of(QUEUE), List.of(), Duration.ofMinutes(5), true, 1)
			.get(0);

		assertThat(claimed.lockedUntil()).isEqualTo(claimed.startedAt().plus(Duration.ofMinutes(5)));
	}

	@Test
	void executionTimeoutEndsAnExternalWorkersAttemptDespiteHeartbeatsL1Tmo001() {
		Worker worker = startNode(handler(null, (attempt) -> {
		}));
		String id = enqueue(job(TYPE).queue(QUEUE).timeout(Duration.ofSeconds(2)).policy(RETRY_AFTER_1S));
		RemoteAttempts remote = worker.remoteAttempts();

		Job claimed = remote.claim("w1", List.of(QUEUE), List.of(), Duration.ofMinutes(5), true, 1).get(0);
		Instant deadline = claimed.startedAt().plusSeconds(2);
		assertThat(claimed.lockedUntil()).isEqualTo(deadline);
		// a heartbeat never extends the reservation past the execution timeout
		assertThat(remote.heartbeat("w1", List.of(id), Duration.ofMinutes(5))).containsExactly(id);
		assertThat(this.producer.find(id).orElseThrow().lockedUntil()).isEqualTo(deadline);

		Job failed = awaitLeftActive(id, deadline);
		assertThat(failed.lastError().type()).isEqualTo("timeout");
		// next attempt = max(reservation end, start + 1 s) = the deadline: due, so available
		assertThat(failed.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(failed.attempt()).isEqualTo(1);
		assertThat(failed.scheduledAt()).isEqualTo(deadline);
	}

	@Test
	void handlerRunningPastItsTimeoutIsInterruptedAndFailsWithTypeTimeout() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(1);
		startNode(handler(Duration.ofMillis(500), (attempt) -> sleepUntilInterrupted(interrupted)));
		long start = System.nanoTime();

		String id = enqueue(job(TYPE).queue(LOCAL_QUEUE).policy(RetryPolicy.builder().maxAttempts(1).build()));

		assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
		Job failed = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.producer.find(id).orElseThrow(), (job) -> job.state() == JobState.DISCARDED);
		assertThat(failed.lastError().type()).isEqualTo("timeout");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500))
			.isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void jobsOwnTimeoutWinsOverItsHandlers() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(1);
		startNode(handler(Duration.ofMinutes(10), (attempt) -> sleepUntilInterrupted(interrupted)));

		String id = enqueue(job(TYPE).queue(LOCAL_QUEUE).timeout(Duration.ofMillis(500)).policy(RETRY_AFTER_1S));

		assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
		Job failed = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.producer.find(id).orElseThrow(), (job) -> !job.errors().isEmpty());
		assertThat(failed.errors().get(0).type()).isEqualTo("timeout");
		assertThat(failed.errors().get(0).attempt()).isEqualTo(1);
	}

	private static void sleepUntilInterrupted(CountDownLatch interrupted) {
		try {
			Thread.sleep(60_000);
		}
		catch (InterruptedException ex) {
			interrupted.countDown();
		}
	}

	/** Waits for the job to leave {@code active}, at most {@link #RESCUE_BOUND} after {@code reservationEnd}. */
	private Job awaitLeftActive(String id, Instant reservationEnd) {
		Job job = await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
			.until(() -> this.producer.find(id).orElseThrow(), (found) -> found.state() != JobState.ACTIVE);
		Instant now = this.producer.now();
		assertThat(job.lastError().timestamp()).isBetween(reservationEnd, reservationEnd.plus(RESCUE_BOUND));
		assertThat(now).isAfterOrEqualTo(reservationEnd);
		return job;
	}

	private HandlerRegistration handler(Duration timeout, JobHandler body) {
		return new HandlerRegistration(TYPE, LOCAL_QUEUE, 0, null, body, null, RetryPolicy.DEFAULT, false, timeout);
	}

	private Worker startNode(HandlerRegistration handler) {
		Worker worker = new Worker(this.schema.newStore(), List.of(handler), new WorkerSettings(null,
				Map.of(LOCAL_QUEUE, 2), Duration.ofMillis(100), Duration.ofSeconds(30), Duration.ofSeconds(2),
				RetentionSettings.defaults()), null, RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private String enqueue(dev.ojs.testsupport.Jobs job) {
		return this.producer.insert(List.of(job.build())).get(0);
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The claim loop ({@link QueuePoller}, {@link Slots}) on an in-memory store: claims sized to
 * free slots, type limits across queues, wake-ups, and store errors (spec §9.1).
 */
class ClaimLoopTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final FakeWorkerStore store = new FakeWorkerStore();

	private final RecordingListener listener = new RecordingListener();

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.workers.forEach(Worker::stop);
	}

	@Test
	void claimsNeverExceedTheFreeSlotsAndRunAtMostTheConcurrency() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		List<String> ids = IntStream.range(0, 10).mapToObj((i) -> this.store.add("t", "default").id()).toList();
		start(settings(Map.of("default", 4), Duration.ofMillis(50)), handler("t", "default", 0, (attempt) -> {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			release.await(10, TimeUnit.SECONDS);
			running.decrementAndGet();
		}));
		await().atMost(TIMEOUT).until(() -> running.get() == 4);
		// the queue is full: the poller waits for slots instead of claiming
		int claims = this.store.claimLimits.size();
		assertThat(this.store.all().stream().filter((job) -> job.state() == JobState.ACTIVE)).hasSize(4);
		release.countDown();
		awaitCompleted(ids);
		assertThat(mostAtOnce).hasValue(4);
		assertThat(this.store.claimLimits).allSatisfy((limit) -> assertThat(limit).isBetween(1, 4));
		assertThat(this.store.claimLimits.size()).isGreaterThan(claims);
	}

	@Test
	void aTypesOwnLimitHoldsAcrossQueues() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		List<String> ids = IntStream.range(0, 12)
			.mapToObj((i) -> this.store.add("limited", (i % 2 == 0) ? "a" : "b").id())
			.toList();
		start(settings(Map.of("a", 5, "b", 5), Duration.ofMillis(50)), handler("limited", "a", 2, (attempt) -> {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			release.await(10, TimeUnit.SECONDS);
			running.decrementAndGet();
		}));
		await().atMost(TIMEOUT).until(() -> running.get() == 2);
		assertThat(this.store.all().stream().filter((job) -> job.state() == JobState.ACTIVE)).hasSize(2);
		release.countDown();
		awaitCompleted(ids);
		assertThat(mostAtOnce).hasValue(2);
	}

	@Test
	void shortJobsAreClaimedAheadOfTheFreeHandlersButRunAtMostTheConcurrency() {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		List<String> ids = IntStream.range(0, 400).mapToObj((i) -> this.store.add("t", "default").id()).toList();
		start(settings(Map.of("default", 4), Duration.ofMinutes(1)), handler("t", "default", 0, (attempt) -> {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			running.decrementAndGet();
		}));
		awaitCompleted(ids);
		assertThat(mostAtOnce.get()).isBetween(1, 4);
		// the prefetch: up to eight times the concurrency beyond the free handlers
		assertThat(this.store.claimLimits).allSatisfy((limit) -> assertThat(limit).isBetween(1, 4 + Slots.PREFETCH_FACTOR * 4));
		assertThat(this.store.claimLimits).as("a claim beyond the free handlers and twice the concurrency")
			.anySatisfy((limit) -> assertThat(limit).isGreaterThan(4 + 2 * 4));
	}

	@Test
	void aBacklogIsClaimedInFullBatchesBackToBack() {
		List<String> ids = IntStream.range(0, 1000).mapToObj((i) -> this.store.add("t", "default").id()).toList();
		// a one-minute poll interval: only claims that come back full keep the poller going
		start(settings(Map.of("default", 20), Duration.ofMinutes(1)), handler("t", "default", 0, (attempt) -> {
		}));
		awaitCompleted(ids);
		// each claim takes at most 180: 20 free handlers and a prefetch of up to 160
		assertThat(this.store.claimLimits).hasSizeGreaterThanOrEqualTo(6)
			.allSatisfy((limit) -> assertThat(limit).isLessThanOrEqualTo(20 + Slots.PREFETCH_FACTOR * 20));
	}

	@Test
	void anInsertNotificationWakesAnIdlePollerAtOnce() {
		this.store.notifies = true;
		List<Job> started = new CopyOnWriteArrayList<>();
		start(settings(Map.of("default", 4), Duration.ofSeconds(30)),
				handler("t", "default", 0, (attempt) -> started.add(attempt.job())));
		// once a claim came more than 600 ms after the one before, the idle wait after it
		// lasts at least 1.2 s (it doubles after every empty claim)
		await().atMost(TIMEOUT).until(() -> lastClaimGap().toMillis() > 600);
		String id = this.store.add("t", "default").id();
		long notified = System.nanoTime();
		this.store.insertCallback.accept("default");
		awaitCompleted(id);
		assertThat(Duration.ofNanos(System.nanoTime() - notified)).isLessThan(Duration.ofMillis(500));
	}

	@Test
	void aRetryWrittenHereIsClaimedWhenDueWithoutWaitingForThePollInterval() {
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(2)
			.initialInterval(Duration.ofMillis(300))
			.jitter(false)
			.build()
			.effective();
		List<Long> startedAt = new CopyOnWriteArrayList<>();
		String id = this.store.add("t", "default", 0, policy, this.store.now()).id();
		start(settings(Map.of("default", 4), Duration.ofSeconds(30)), handler("t", "default", 0, (attempt) -> {
			startedAt.add(System.nanoTime());
			if (attempt.job().attempt() == 1) {
				throw new IllegalStateException("first attempt fails");
			}
		}));
		// let the store's clock follow the wall clock until the retry has run
		long begin = System.nanoTime();
		java.time.Instant origin = this.store.now();
		await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(5)).until(() -> {
			this.store.clock.set(origin.plusNanos(System.nanoTime() - begin));
			return this.store.get(id).state() == JobState.COMPLETED;
		});
		// due 300 ms after the failure; a 30 s poll interval would have started it much later
		assertThat(Duration.ofNanos(startedAt.get(1) - startedAt.get(0))).isBetween(Duration.ofMillis(290),
				Duration.ofSeconds(2));
		assertThat(this.listener.kinds(id)).containsExactly("retrying", "completed");
	}

	@Test
	void storeErrorsNeverEndThePoller() {
		this.store.claimFailures.add(new IllegalStateException("database down"));
		this.store.claimFailures.add(new IllegalStateException("still down"));
		String id = this.store.add("t", "default").id();
		start(settings(Map.of("default", 4), Duration.ofMillis(50)), handler("t", "default", 0, (attempt) -> {
		}));
		awaitCompleted(id);
		assertThat(this.store.claimFailures).isEmpty();
	}

	@Test
	void statusReportsTheServedQueuesAndRunningHandlers() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		this.store.add("t", "mail");
		Worker worker = start(settings(Map.of("default", 3), Duration.ofMillis(50)),
				handler("t", "mail", 0, (attempt) -> release.await(10, TimeUnit.SECONDS)));
		await().atMost(TIMEOUT).until(() -> worker.status().activeByQueue().get("mail") == 1);
		WorkerStatus status = worker.status();
		assertThat(status.queues()).containsOnly(Map.entry("default", 3),
				Map.entry("mail", WorkerSettings.DEFAULT_QUEUE_CONCURRENCY));
		assertThat(status.types()).containsExactly("t");
		assertThat(status.running()).isTrue();
		release.countDown();
		await().atMost(TIMEOUT).until(() -> worker.status().activeByQueue().get("mail") == 0);
	}

	// ---- helpers

	private Duration lastClaimGap() {
		List<Long> at = this.store.claimedAtNanos;
		int n = at.size();
		return (n < 2) ? Duration.ZERO : Duration.ofNanos(at.get(n - 1) - at.get(n - 2));
	}

	private Worker start(WorkerSettings settings, HandlerRegistration... handlers) {
		Worker worker = new Worker(this.store, List.of(handlers), settings, this.listener, RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private void awaitCompleted(String id) {
		awaitCompleted(List.of(id));
	}

	private void awaitCompleted(List<String> ids) {
		await().atMost(TIMEOUT)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(10))
			.until(() -> ids.stream().allMatch((id) -> this.store.get(id).state() == JobState.COMPLETED));
	}

	static WorkerSettings settings(Map<String, Integer> queues, Duration pollInterval) {
		return new WorkerSettings("node-1", queues, pollInterval, Duration.ofMinutes(1), Duration.ofSeconds(2),
				RetentionSettings.defaults());
	}

	static HandlerRegistration handler(String type, String queue, int concurrency, JobHandler handler) {
		return new HandlerRegistration(type, queue, concurrency, null, handler, null, RetryPolicy.DEFAULT);
	}

}

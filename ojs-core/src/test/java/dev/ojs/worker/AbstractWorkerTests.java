package dev.ojs.worker;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Timestamps;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.FlakyDataSource;
import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.Jobs;
import dev.ojs.testsupport.RejectingDataSource;
import dev.ojs.testsupport.DatabaseTests;

import static dev.ojs.testsupport.Jobs.job;
import static dev.ojs.testsupport.Jobs.quickRetries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker engine end to end, run against each database by a subclass.
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class AbstractWorkerTests extends DatabaseTests {

	static final String TYPE = "test.job";

	static final Duration TIMEOUT = Duration.ofSeconds(30);

	JdbcJobStore store;

	final RecordingListener listener = new RecordingListener();

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() {
		this.schema.clear();
		this.store = this.schema.newStore();
		this.listener.events.clear();
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
		this.workers.clear();
	}

	// ---- retry policy end to end

	@ParameterizedTest(name = "max_attempts {0}")
	@ValueSource(ints = { 0, 1, 3, 25 })
	void attemptsAreExactlyMaxAttempts(int maxAttempts) {
		Map<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
		start(handler(TYPE, (attempt) -> {
			runs.computeIfAbsent(attempt.job().attempt(), (number) -> new AtomicInteger()).incrementAndGet();
			throw new IllegalStateException("boom " + attempt.job().attempt());
		}));
		String id = enqueue(job(TYPE).policy(quickRetries(maxAttempts)));
		Job job = awaitState(id, JobState.DISCARDED);
		int expected = Math.max(1, maxAttempts);
		assertThat(job.attempt()).isEqualTo(expected);
		assertThat(runs).hasSize(expected).allSatisfy((attempt, count) -> assertThat(count).hasValue(1));
		// RET-15: the newest entries, at least 10 (here the default 20)
		assertThat(job.errors()).hasSize(Math.min(expected, 20));
		assertThat(job.errors()).extracting(ErrorEntry::attempt)
			.containsExactlyElementsOf(IntStream.rangeClosed(Math.max(1, expected - 19), expected).boxed().toList());
		assertThat(job.lastError().type()).isEqualTo(IllegalStateException.class.getName());
		assertThat(job.lastError().message()).isEqualTo("boom " + expected);
		assertThat(job.deadLetter()).isFalse();
		awaitEvents(id, expected);
		List<String> kinds = new ArrayList<>(Collections.nCopies(expected - 1, "retrying"));
		kinds.add("discarded");
		assertThat(this.listener.kinds(id)).isEqualTo(kinds);
	}

	@Test
	void errorHistoryKeepsTheConfiguredNewestEntries() {
		start(new WorkerSettings("node-1", Map.of("default", 10), Duration.ofMillis(200), Duration.ofSeconds(30),
				Duration.ofSeconds(2), retention(), WorkerSettings.DEFAULT_QUEUE_CONCURRENCY, 10, RetryPolicy.DEFAULT),
				handler(TYPE, (attempt) -> {
			throw new IllegalStateException("boom");
		}));
		String id = enqueue(job(TYPE).policy(quickRetries(13)));
		Job job = awaitState(id, JobState.DISCARDED);
		assertThat(job.attempt()).isEqualTo(13);
		assertThat(job.errors()).extracting(ErrorEntry::attempt).containsExactly(4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
	}

	@Test
	void retryDelaysFollowThePolicyAndRetriesArePickedUpPromptly() {
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(3)
			.initialInterval(Duration.ofMillis(1500))
			.backoffCoefficient(2.0)
			.maxInterval(Duration.ofSeconds(10))
			.jitter(false)
			.build()
			.effective();
		List<Job> attempts = new CopyOnWriteArrayList<>();
		// a 5 s poll interval: only the known due time can wake the poller in time (without it,
		// the adaptive polls after the last claim come at 5, 15, 35, ... 1275, 2555, 5115 ms,
		// i.e. over a second after each due time)
		start(new WorkerSettings("node-1", Map.of("default", 4), Duration.ofSeconds(5), Duration.ofSeconds(30),
				Duration.ofSeconds(2), retention()), handler(TYPE, (attempt) -> {
					attempts.add(attempt.job());
					throw new IllegalStateException("boom");
				}));
		String id = enqueue(job(TYPE).policy(policy));
		Job job = awaitState(id, JobState.DISCARDED);
		assertThat(attempts).hasSize(3);
		List<RecordingListener.Event> retries = this.listener.of(id).stream()
			.filter((event) -> event.kind().equals("retrying"))
			.toList();
		assertThat(retries).extracting(RecordingListener.Event::delay)
			.containsExactly(Duration.ofMillis(1500), Duration.ofMillis(3000));
		for (int retry = 1; retry <= 2; retry++) {
			ErrorEntry failed = job.errors().get(retry - 1);
			Instant due = retries.get(retry - 1).nextRetryAt();
			Instant started = attempts.get(retry).startedAt();
			// §3.3: delay(n) = initial_interval * coefficient^(n-1); RET-11: never before it
			assertThat(due).isEqualTo(failed.timestamp().plus(policy.delayBeforeRetry(retry)));
			assertThat(started).isAfterOrEqualTo(due);
			// picked up promptly once due (~100 ms under normal load; generous for a busy machine)
			assertThat(Duration.between(due, started)).isLessThan(Duration.ofMillis(500));
		}
	}

	@Test
	void manyRetriesAreEachPickedUpWhenDue() {
		int jobs = 20;
		Map<String, Instant> retried = new ConcurrentHashMap<>();
		RetryPolicy policy = RetryPolicy.builder().maxAttempts(2).maxInterval(Duration.ofSeconds(10)).build().effective();
		List<String> ids = this.store.insert(IntStream.range(0, jobs).mapToObj((i) -> job(TYPE).policy(policy).build()).toList());
		// jittered delays of 1.3 to 2 s, and a 5 s poll interval: only known due times wake the poller in
		// time (the adaptive polls after the first claim come at ... 1275, 2555 ms)
		Worker worker = new Worker(this.store, List.of(handler(TYPE, (attempt) -> {
			if (attempt.job().attempt() == 1) {
				throw new IllegalStateException("boom");
			}
			retried.put(attempt.job().id(), attempt.job().startedAt());
		})), new WorkerSettings("node-1", Map.of("default", jobs), Duration.ofSeconds(5), Duration.ofSeconds(30),
				Duration.ofSeconds(2), retention()), this.listener,
				(job, error) -> Optional.of(Duration.ofMillis(ThreadLocalRandom.current().nextLong(1300, 2000))));
		startWorker(worker);
		ids.forEach((id) -> awaitState(id, JobState.COMPLETED));
		List<Long> lateness = new ArrayList<>();
		for (String id : ids) {
			Instant due = this.listener.of(id)
				.stream()
				.filter((event) -> event.kind().equals("retrying"))
				.findFirst()
				.orElseThrow()
				.nextRetryAt();
			// RET-11: never before next_retry_at
			assertThat(retried.get(id)).isAfterOrEqualTo(due);
			lateness.add(Duration.between(due, retried.get(id)).toMillis());
		}
		Collections.sort(lateness);
		// ~100 ms is the target; 250 ms leaves room for a loaded machine
		assertThat(lateness).as("lateness (ms)").allSatisfy((late) -> assertThat(late).isLessThan(250));
		assertThat(lateness.get(jobs / 2)).as("median lateness (ms) of " + lateness).isLessThan(100);
	}

	@Test
	void retryWrittenByAnotherNodeIsPickedUpWhenDue() {
		String id = enqueue(job(TYPE).policy(quickRetries(3)));
		Job claimed = this.store.claim("node-0", "default", Map.of(TYPE, Duration.ofSeconds(30)), 1).get(0);
		List<Job> ran = new CopyOnWriteArrayList<>();
		ClaimObservingStore observed = new ClaimObservingStore(this.schema.dataSource(), this.schema.settings());
		startWorker(new Worker(observed, List.of(handler(TYPE, (attempt) -> ran.add(attempt.job()))),
				new WorkerSettings("node-1", Map.of("default", 4), Duration.ofSeconds(5), Duration.ofSeconds(30),
						Duration.ofSeconds(2), retention()),
				this.listener, RetryDelayOverride.NONE));
		// the poller's first claim found nothing: from now on it idles
		await().atMost(TIMEOUT).until(() -> observed.claims() > 0);
		// node-0 fails the attempt: node-1 hears of the retry from the database only
		Instant now = this.store.now();
		Instant due = now.plusMillis(1500);
		assertThat(this.store.fail(List.of(new AttemptFailure(claimed, JobState.RETRYABLE, due,
				List.of(new ErrorEntry(1, "x.failed", "failed", ErrorCode.RETRY, now, Map.of())), false, now))))
			.containsExactly(id);
		awaitState(id, JobState.COMPLETED);
		assertThat(ran).singleElement().satisfies((job) -> {
			assertThat(job.startedAt()).isAfterOrEqualTo(due);
			// a 5 s poll interval, but due times are refreshed from the database every second
			assertThat(Duration.between(due, job.startedAt())).isLessThan(Duration.ofMillis(250));
		});
	}

	/**
	 * An insert through the worker's own store wakes its poller as the insert commits, with
	 * no round trip through the database: on every platform, also those that cannot notify.
	 */
	@Test
	void anInsertThroughTheWorkersOwnStoreWakesItAtOnce() {
		ClaimObservingStore observed = new ClaimObservingStore(this.schema.dataSource(), this.schema.settings());
		List<Job> started = startIdleWorker(observed);
		Instant enqueued = observed.now();
		String id = observed.insert(List.of(job(TYPE).build())).get(0);
		awaitState(id, JobState.COMPLETED);
		assertThat(Duration.between(enqueued, started.get(0).startedAt())).isLessThan(Duration.ofMillis(300));
	}

	@Test
	void jitteredDelaysStayWithinSpecBounds() {
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(4)
			.initialInterval(Duration.ofMillis(40))
			.backoffCoefficient(2.0)
			.maxInterval(Duration.ofMillis(120))
			.jitter(true)
			.build()
			.effective();
		start(handler(TYPE, (attempt) -> {
			throw new IllegalStateException("boom");
		}));
		List<String> ids = this.store.insert(IntStream.range(0, 5).mapToObj((i) -> job(TYPE).policy(policy).build()).toList());
		ids.forEach((id) -> awaitState(id, JobState.DISCARDED));
		int jittered = 0;
		for (String id : ids) {
			List<RecordingListener.Event> retries = this.listener.of(id).stream()
				.filter((event) -> event.kind().equals("retrying"))
				.toList();
			assertThat(retries).hasSize(3);
			for (int retry = 1; retry <= 3; retry++) {
				Duration raw = policy.delayBeforeRetry(retry);
				Duration delay = retries.get(retry - 1).delay();
				// §5: raw * [0.5, 1.5), then capped at max_interval (RET-05, RET-06)
				assertThat(delay).isGreaterThanOrEqualTo(raw.dividedBy(2))
					.isLessThanOrEqualTo(min(raw.multipliedBy(3).dividedBy(2), Duration.ofMillis(120)));
				jittered += delay.equals(raw) ? 0 : 1;
			}
		}
		// the worker applies the jitter: 15 random draws all equal to the raw delay do not happen
		assertThat(jittered).as("delays that differ from the unjittered delay").isPositive();
	}

	@Test
	void handlerCodesAndNonRetryableErrorsEndInTheRightState() {
		RetryPolicy deadLetterPolicy = RetryPolicy.builder()
			.maxAttempts(5)
			.nonRetryableErrors("payment.declined")
			.onExhaustion(OnExhaustion.DEAD_LETTER)
			.build()
			.effective();
		start(new HandlerRegistration(TYPE, "default", 0, null, (attempt) -> {
			throw new IllegalStateException(attempt.job().argsJson());
		}, (job, failure) -> {
			String[] parts = failure.getMessage().replaceAll("[\\[\\]\" ]", "").split(",");
			return new JobError(parts[0], "failed with " + parts[1], ErrorCode.valueOf(parts[1]), Map.of("why", parts[1]));
		}, RetryPolicy.DEFAULT));
		String discard = enqueue(job(TYPE).args("[\"x.discard\",\"DISCARD\"]").policy(deadLetterPolicy));
		String fail = enqueue(job(TYPE).args("[\"x.fail\",\"FAIL\"]").policy(deadLetterPolicy));
		String deadLetter = enqueue(job(TYPE).args("[\"x.dead\",\"DEAD_LETTER\"]"));
		String nonRetryable = enqueue(job(TYPE).args("[\"payment.declined\",\"RETRY\"]").policy(deadLetterPolicy));
		String nonRetryableDiscard = enqueue(job(TYPE).args("[\"payment.declined\",\"RETRY\"]")
			.policy(RetryPolicy.builder().maxAttempts(5).nonRetryableErrors("payment.*").build()));

		assertTerminal(discard, false, "x.discard", ErrorCode.DISCARD, "discarded");
		assertTerminal(fail, false, "x.fail", ErrorCode.FAIL, "discarded");
		assertTerminal(deadLetter, true, "x.dead", ErrorCode.DEAD_LETTER, "deadLettered");
		assertTerminal(nonRetryable, true, "payment.declined", ErrorCode.RETRY, "deadLettered");
		assertTerminal(nonRetryableDiscard, false, "payment.declined", ErrorCode.RETRY, "discarded");
		assertThat(this.store.find(discard).orElseThrow().lastError().details()).isEqualTo(Map.of("why", "DISCARD"));
	}

	/**
	 * Every failed attempt is logged once it is stored (logger {@code dev.ojs.worker.FailedAttempts}):
	 * DEBUG while it is retried, WARN when it is dead-lettered, INFO when it is discarded.
	 */
	@Test
	void failedAttemptsAreLogged(CapturedOutput output) {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel("dev.ojs.worker.FailedAttempts", LogLevel.DEBUG);
		try {
			assertFailedAttemptsAreLogged(output);
		}
		finally {
			logging.setLogLevel("dev.ojs.worker.FailedAttempts", null);
		}
	}

	private void assertFailedAttemptsAreLogged(CapturedOutput output) {
		start(handler(TYPE, (attempt) -> {
			throw new IllegalStateException("smtp down " + attempt.job().attempt());
		}));
		String deadLetter = enqueue(job(TYPE).policy(RetryPolicy.builder()
			.maxAttempts(3)
			.initialInterval(Duration.ofMillis(10))
			.jitter(false)
			.onExhaustion(OnExhaustion.DEAD_LETTER)
			.build()
			.effective()));
		String discard = enqueue(job(TYPE).policy(quickRetries(1)));
		awaitState(deadLetter, JobState.DISCARDED);
		awaitState(discard, JobState.DISCARDED);
		String error = ": " + IllegalStateException.class.getName() + ": smtp down ";
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(output.getAll())
			.containsPattern(logLine("WARN", deadLetter, 3, " failed and was dead-lettered" + error + "3"))
			.containsPattern(logLine("INFO", discard, 1, " failed and was discarded" + error + "1")));
		assertThat(output.getAll())
			.containsPattern(logLine("DEBUG", deadLetter, 1, " failed, retrying in PT0.01S at ") + "\\S+"
					+ Pattern.quote(error + "1"))
			.containsPattern(logLine("DEBUG", deadLetter, 2, " failed, retrying in PT0.02S at ") + "\\S+"
					+ Pattern.quote(error + "2"));
	}

	private static String logLine(String level, String id, int attempt, String rest) {
		return level + "\\s+dev\\.ojs\\.worker\\.FailedAttempts -- "
				+ Pattern.quote("OJS job " + TYPE + " " + id + " (queue default) attempt " + attempt + rest);
	}

	private void assertTerminal(String id, boolean deadLetter, String errorType, ErrorCode code, String event) {
		Job job = awaitState(id, JobState.DISCARDED);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.deadLetter()).isEqualTo(deadLetter);
		assertThat(job.discardedAt()).isNotNull();
		assertThat(job.errors()).singleElement().satisfies((error) -> {
			assertThat(error.type()).isEqualTo(errorType);
			assertThat(error.code()).isEqualTo(code);
			assertThat(error.attempt()).isEqualTo(1);
		});
		awaitEvents(id, 1);
		assertThat(this.listener.kinds(id)).containsExactly(event);
	}

	@Test
	void retryDelayOverrideIsCappedAtMaxInterval() {
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(2)
			.initialInterval(Duration.ofMillis(100))
			.maxInterval(Duration.ofMillis(150))
			.build()
			.effective();
		Worker worker = new Worker(this.store, List.of(handler(TYPE, (attempt) -> {
			throw new IllegalStateException("boom");
		})), settings("node-1"), this.listener, (job, error) -> java.util.Optional.of(Duration.ofHours(1)));
		startWorker(worker);
		String id = enqueue(job(TYPE).policy(policy));
		awaitState(id, JobState.DISCARDED);
		assertThat(this.listener.of(id).get(0).delay()).isEqualTo(Duration.ofMillis(150));
	}

	// ---- ordering, scheduling, concurrency

	@Test
	void priorityThenFifo() {
		List<String> ids = this.store.insert(List.of(job(TYPE).priority(1).build(), job(TYPE).priority(5).build(),
				job(TYPE).priority(1).build(), job(TYPE).priority(5).build(), job(TYPE).priority(3).build()));
		List<String> order = new CopyOnWriteArrayList<>();
		start(settings("node-1", 1), handler(TYPE, (attempt) -> order.add(attempt.job().id())));
		await().atMost(TIMEOUT).until(() -> order.size() == 5);
		assertThat(order).containsExactly(ids.get(1), ids.get(3), ids.get(4), ids.get(0), ids.get(2));
	}

	@Test
	void delayedJobStartsAtItsRunAt() {
		List<Job> started = new CopyOnWriteArrayList<>();
		start(handler(TYPE, (attempt) -> started.add(attempt.job())));
		Instant runAt = this.store.now().plusMillis(400);
		String id = enqueue(job(TYPE).runAt(runAt));
		assertThat(this.store.find(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
		awaitState(id, JobState.COMPLETED);
		assertThat(started).singleElement().satisfies((job) -> {
			assertThat(job.startedAt()).isAfterOrEqualTo(runAt);
			assertThat(Duration.between(runAt, job.startedAt())).isLessThan(Duration.ofMillis(500));
		});
	}

	@Test
	void concurrencyLimitsPerQueueAndPerTypeAreNeverExceeded() {
		AtomicInteger queueRunning = new AtomicInteger();
		AtomicInteger queueMax = new AtomicInteger();
		AtomicInteger typeRunning = new AtomicInteger();
		AtomicInteger typeMax = new AtomicInteger();
		JobHandler slow = (attempt) -> {
			queueMax.accumulateAndGet(queueRunning.incrementAndGet(), Math::max);
			boolean limited = attempt.job().type().equals("limited.job");
			if (limited) {
				typeMax.accumulateAndGet(typeRunning.incrementAndGet(), Math::max);
			}
			Thread.sleep(20);
			if (limited) {
				typeRunning.decrementAndGet();
			}
			queueRunning.decrementAndGet();
		};
		start(settings("node-1", 4), handler(TYPE, slow),
				new HandlerRegistration("limited.job", "default", 2, null, slow, null, RetryPolicy.DEFAULT));
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			jobs.add(job((i % 2 == 0) ? TYPE : "limited.job").build());
		}
		List<String> ids = this.store.insert(jobs);
		ids.forEach((id) -> awaitState(id, JobState.COMPLETED));
		assertThat(queueMax.get()).isBetween(2, 4);
		assertThat(typeMax.get()).isBetween(1, 2);
	}

	@Test
	void jobsRunInEveryQueueTheNodeServes() {
		List<Job> ran = new CopyOnWriteArrayList<>();
		// the handler's queue is "mail"; "default" and "bulk" are configured and declared by no handler
		Worker worker = start(new WorkerSettings("node-1", Map.of("default", 2, "bulk", 3), Duration.ofMillis(200),
				Duration.ofSeconds(30), Duration.ofSeconds(2), retention()),
				new HandlerRegistration(TYPE, "mail", 0, null, (attempt) -> ran.add(attempt.job()), null,
				RetryPolicy.DEFAULT));
		String unserved = enqueue(job(TYPE).queue("elsewhere"));
		List<String> served = List.of(enqueue(job(TYPE).queue("mail")), enqueue(job(TYPE)),
				enqueue(job(TYPE).queue("bulk")));
		served.forEach((id) -> awaitState(id, JobState.COMPLETED));
		assertThat(ran).extracting(Job::queue).containsExactlyInAnyOrder("mail", "default", "bulk");
		assertThat(worker.status().queues())
			.isEqualTo(Map.of("default", 2, "bulk", 3, "mail", WorkerSettings.DEFAULT_QUEUE_CONCURRENCY));
		assertThat(this.store.find(unserved).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
	}

	@Test
	void aTypesConcurrencyLimitIsSharedByEveryQueue() {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger max = new AtomicInteger();
		start(new WorkerSettings("node-1", Map.of("default", 4, "other", 4), Duration.ofMillis(200),
				Duration.ofSeconds(30), Duration.ofSeconds(2), retention()),
				new HandlerRegistration("limited.job", "default", 2, null, (attempt) -> {
					max.accumulateAndGet(running.incrementAndGet(), Math::max);
					Thread.sleep(20);
					running.decrementAndGet();
				}, null, RetryPolicy.DEFAULT));
		List<String> ids = this.store.insert(IntStream.range(0, 30)
			.mapToObj((i) -> job("limited.job").queue((i % 2 == 0) ? "default" : "other").build())
			.toList());
		ids.forEach((id) -> awaitState(id, JobState.COMPLETED));
		assertThat(max.get()).isBetween(1, 2);
	}

	@Test
	void fourWorkersRunTwoThousandJobsOnceEachAtATime() {
		Set<String> running = ConcurrentHashMap.newKeySet();
		List<String> overlaps = new CopyOnWriteArrayList<>();
		Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
		Set<String> workers = ConcurrentHashMap.newKeySet();
		JobHandler handler = (attempt) -> {
			String id = attempt.job().id();
			if (!running.add(id)) {
				overlaps.add(id);
			}
			try {
				attempts.computeIfAbsent(id, (key) -> new AtomicInteger()).incrementAndGet();
				// the first node's slots wait (5 s at most) until another node has claimed a job: the
				// jobs left waiting are shared whoever won the first claims
				workers.add(attempt.job().lockedBy());
				long sharedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
				while (workers.size() < 2 && System.nanoTime() < sharedBy) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
				}
				if (attempt.job().attempt() == 1 && ThreadLocalRandom.current().nextInt(100) < 30) {
					throw new IllegalStateException("transient");
				}
			}
			finally {
				running.remove(id);
			}
		};
		for (int n = 1; n <= 4; n++) {
			start(settings("node-" + n, 8), handler(TYPE, handler));
		}
		List<String> ids = this.store.insert(IntStream.range(0, 2000).mapToObj((i) -> job(TYPE).policy(quickRetries(3)).build()).toList());
		await().atMost(Duration.ofSeconds(90))
			.until(() -> this.store.countByQueueAndState().get("default").getOrDefault(JobState.COMPLETED, 0L) == 2000);
		assertThat(overlaps).isEmpty();
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		List<Map<String, Object>> rows = jdbc.queryForList("SELECT id, attempt, locked_by FROM " + this.schema.tableName());
		assertThat(rows).hasSize(2000);
		for (Map<String, Object> row : rows) {
			String id = String.valueOf(row.get("id")).toLowerCase();
			int attempt = ((Number) row.get("attempt")).intValue();
			assertThat(attempt).isBetween(1, 2);
			assertThat(attempts.get(id)).as("executions of " + id).hasValue(attempt);
		}
		// The work is shared: while one node's slots are busy, another claims (not all four need
		// to have won a claim on a loaded machine); the properties above are what must hold.
		assertThat(rows.stream().map((row) -> row.get("locked_by")).distinct().toList()).as("nodes that worked")
			.hasSizeGreaterThanOrEqualTo(2)
			.isSubsetOf("node-1", "node-2", "node-3", "node-4");
		assertThat(ids).allSatisfy((id) -> assertThat(attempts).containsKey(id));
	}

	// ---- reservations

	@Test
	void abandonedReservationIsRecoveredAsACountedAttempt() {
		RetryPolicy deadLetterAfterOne = RetryPolicy.builder()
			.maxAttempts(1)
			.onExhaustion(OnExhaustion.DEAD_LETTER)
			.build()
			.effective();
		String retried = enqueue(job(TYPE).policy(quickRetries(3)));
		String exhausted = enqueue(job(TYPE).policy(deadLetterAfterOne));
		// a node claims both and dies (kill -9): nothing ever completes them
		assertThat(this.store.claim("dead-node", "default", Map.of(TYPE, Duration.ofMillis(300)), 10)).hasSize(2);
		List<Job> ran = new CopyOnWriteArrayList<>();
		start(new HandlerRegistration(TYPE, "default", 0, Duration.ofSeconds(1), (attempt) -> ran.add(attempt.job()),
				null, RetryPolicy.DEFAULT));
		Job recovered = awaitState(retried, JobState.COMPLETED);
		assertThat(recovered.attempt()).isEqualTo(2);
		assertThat(recovered.errors()).singleElement().satisfies((error) -> {
			assertThat(error.type()).isEqualTo("visibility_timeout");
			assertThat(error.attempt()).isEqualTo(1);
			assertThat(error.code()).isEqualTo(ErrorCode.RETRY);
		});
		assertThat(ran).extracting(Job::id).containsExactly(retried);
		Job dead = awaitState(exhausted, JobState.DISCARDED);
		assertThat(dead.deadLetter()).isTrue();
		assertThat(dead.attempt()).isEqualTo(1);
		assertThat(dead.lastError().type()).isEqualTo("visibility_timeout");
		awaitEvents(exhausted, 1);
		assertThat(this.listener.kinds(exhausted)).containsExactly("deadLettered");
		// attempt 1 reaped (told on the maintenance thread), attempt 2 completed (completer):
		// each reported once, in either order
		awaitEvents(retried, 2);
		assertThat(this.listener.events.stream().filter((event) -> event.job().id().equals(retried))
			.map((event) -> event.kind() + "@" + event.job().attempt())).containsExactlyInAnyOrder("retrying@1",
					"completed@2");
	}

	@Test
	void longHandlerKeepsItsReservationByHeartbeat() {
		AtomicInteger runs = new AtomicInteger();
		start(new HandlerRegistration(TYPE, "default", 0, Duration.ofMillis(400), (attempt) -> {
			runs.incrementAndGet();
			Thread.sleep(1500);
		}, null, RetryPolicy.DEFAULT));
		String id = enqueue(job(TYPE));
		Job job = awaitState(id, JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.errors()).isEmpty();
		assertThat(runs).hasValue(1);
	}

	@Test
	void explicitHeartbeatExtendsTheReservation() {
		CountDownLatch release = new CountDownLatch(1);
		List<Instant> lockedUntil = new CopyOnWriteArrayList<>();
		start(new HandlerRegistration(TYPE, "default", 0, Duration.ofMinutes(10), (attempt) -> {
			lockedUntil.add(this.store.find(attempt.job().id()).orElseThrow().lockedUntil());
			// the claim set locked_until = claim time + 10 min: let the clock move past it
			Thread.sleep(20);
			Instant heartbeatAt = this.store.now();
			attempt.heartbeat();
			lockedUntil.add(this.store.find(attempt.job().id()).orElseThrow().lockedUntil());
			lockedUntil.add(heartbeatAt.plus(Duration.ofMinutes(10)));
			release.await(10, TimeUnit.SECONDS);
		}, null, RetryPolicy.DEFAULT));
		String id = enqueue(job(TYPE));
		await().atMost(TIMEOUT).until(() -> lockedUntil.size() == 3);
		assertThat(lockedUntil.get(1)).as("reservation after heartbeat()").isAfter(lockedUntil.get(0))
			.isAfterOrEqualTo(lockedUntil.get(2).truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
		release.countDown();
		awaitState(id, JobState.COMPLETED);
	}

	@Test
	void staleCompletionAfterReapingIsRejected() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		start(settings("node-a", 1), handler(TYPE, (attempt) -> {
			started.countDown();
			release.await(20, TimeUnit.SECONDS);
		}));
		String id = enqueue(job(TYPE).policy(quickRetries(3)));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		// node-a stalls past its reservation and the reaper (any node) fails the attempt
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		await().atMost(TIMEOUT).until(() -> {
			jdbc.update("UPDATE " + this.schema.tableName() + " SET locked_until = ? WHERE state = 'active'",
					java.sql.Timestamp.from(Instant.now().minus(Duration.ofDays(2))));
			this.store.reapExpired(10, (job) -> new dev.ojs.job.AttemptFailure(job, JobState.RETRYABLE,
					this.store.now(), List.of(new ErrorEntry(job.attempt(), "visibility_timeout", "expired",
							ErrorCode.RETRY, this.store.now(), Map.of())), false, this.store.now()));
			// a retry due at once is stored available (a stalled attempt's backoff runs from its start)
			JobState state = this.store.find(id).orElseThrow().state();
			return state == JobState.RETRYABLE || state == JobState.AVAILABLE;
		});
		// node-b takes the retry
		List<Job> retry = this.store.claim("node-b", "default", Map.of(TYPE, Duration.ofMinutes(5)), 1);
		assertThat(retry).singleElement().satisfies((job) -> assertThat(job.attempt()).isEqualTo(2));
		release.countDown();
		await().atMost(TIMEOUT).until(() -> this.workers.get(0).status().activeByQueue().get("default") == 0);
		stopWorkers();
		Job job = this.store.find(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.ACTIVE);
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(job.lockedBy()).isEqualTo("node-b");
		assertThat(this.listener.kinds(id)).doesNotContain("completed");
	}

	// ---- shutdown, retention, outages

	@Test
	void shutdownLetsShortJobsFinishAndFailsTheRest() {
		CountDownLatch allStarted = new CountDownLatch(3);
		start(new WorkerSettings("node-1", Map.of("default", 3), Duration.ofMillis(100), Duration.ofSeconds(30),
				Duration.ofMillis(500), retention()), handler(TYPE, (attempt) -> {
					allStarted.countDown();
					if (attempt.job().argsJson().contains("short")) {
						Thread.sleep(100);
					}
					else {
						Thread.sleep(60_000);
					}
				}));
		String shortJob = enqueue(job(TYPE).args("[\"short\"]"));
		String retried = enqueue(job(TYPE).args("[\"long\"]").policy(quickRetries(3)));
		String exhausted = enqueue(job(TYPE).args("[\"long\"]").policy(quickRetries(1)));
		await().atMost(TIMEOUT).until(() -> allStarted.getCount() == 0);
		long start = System.nanoTime();
		this.workers.get(0).stop();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(this.workers.get(0).isRunning()).isFalse();
		assertThat(this.store.find(shortJob).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
		Job retry = this.store.find(retried).orElseThrow();
		assertThat(retry.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(retry.lastError().type()).isEqualTo("shutdown");
		assertThat(retry.attempt()).isEqualTo(1);
		Job discarded = this.store.find(exhausted).orElseThrow();
		assertThat(discarded.state()).isEqualTo(JobState.DISCARDED);
		assertThat(discarded.lastError().type()).isEqualTo("shutdown");
		assertThat(this.listener.kinds(retried)).containsExactly("retrying");
		assertThat(this.listener.kinds(shortJob)).containsExactly("completed");
		// another node picks the retry up
		start(settings("node-2"), handler(TYPE, (attempt) -> {
		}));
		assertThat(awaitState(retried, JobState.COMPLETED).attempt()).isEqualTo(2);
	}

	@Test
	void shutdownRetriesATransientErrorWhileRecordingTheJobsStillRunning() throws Exception {
		AtomicInteger failWrites = new AtomicInteger();
		// the first failure write, the shutdown's, loses its connection
		DataSource flaky = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && (sql.startsWith("UPDATE") || sql.startsWith("WITH f AS (UPDATE"))
					&& sql.contains("last_error_type = ")
					&& failWrites.getAndIncrement() == 0) {
				throw new SQLTransientConnectionException("connection lost (simulated)");
			}
			return call.proceed();
		});
		CountDownLatch started = new CountDownLatch(1);
		Worker worker = startWorker(new Worker(new JdbcJobStore(flaky, this.schema.settings()),
				List.of(handler(TYPE, (attempt) -> {
					started.countDown();
					Thread.sleep(60_000);
				})), new WorkerSettings("node-1", Map.of("default", 1), Duration.ofMillis(100), Duration.ofSeconds(30),
						Duration.ofMillis(200), retention()), this.listener, RetryDelayOverride.NONE));
		String id = enqueue(job(TYPE).policy(quickRetries(3)));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		worker.stop();
		assertThat(failWrites).as("failure writes").hasValue(2);
		// recorded by this node at shutdown, not left to the reaper
		Job job = this.store.find(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.lastError().type()).isEqualTo("shutdown");
		assertThat(this.listener.kinds(id)).containsExactly("retrying");
		// the interrupted handler has returned
		await().atMost(TIMEOUT).until(() -> worker.status().activeByQueue().get("default") == 0);
	}

	@Test
	void completedJobsAreDeletedWithZeroRetentionAndPrunedOtherwise() {
		start(new WorkerSettings("node-1", Map.of("default", 4), Duration.ofMillis(100), Duration.ofSeconds(30),
				Duration.ofSeconds(2), new RetentionSettings(Duration.ZERO, Duration.ofDays(1), Duration.ofDays(1), 100,
						Duration.ofHours(1))),
				handler(TYPE, (attempt) -> {
				}));
		List<String> ids = this.store.insert(IntStream.range(0, 20).mapToObj((i) -> job(TYPE).build()).toList());
		await().atMost(TIMEOUT).until(() -> this.listener.events.size() == 20);
		assertThat(ids).allSatisfy((id) -> assertThat(this.store.find(id)).isEmpty());
		stopWorkers();

		start(new WorkerSettings("node-2", Map.of("default", 4), Duration.ofMillis(100), Duration.ofSeconds(30),
				Duration.ofSeconds(2), new RetentionSettings(Duration.ofMillis(200), Duration.ofDays(1), Duration.ofDays(1),
						100, Duration.ofMillis(100))),
				handler(TYPE, (attempt) -> {
				}));
		String kept = enqueue(job(TYPE));
		awaitState(kept, JobState.COMPLETED);
		await().atMost(TIMEOUT).until(() -> this.store.find(kept).isEmpty());
	}

	@Test
	void databaseOutageDoesNotStopTheWorker() {
		FlakyDataSource flaky = new FlakyDataSource(this.schema.dataSource());
		JdbcJobStore flakyStore = new JdbcJobStore(flaky, this.schema.settings());
		Worker worker = new Worker(flakyStore, List.of(handler(TYPE, (attempt) -> {
		})), settings("node-1"), this.listener, RetryDelayOverride.NONE);
		startWorker(worker);
		String before = enqueue(job(TYPE));
		awaitState(before, JobState.COMPLETED);
		flaky.breakDown();
		int refused = flaky.refused();
		await().atMost(TIMEOUT).until(() -> flaky.refused() > refused + 3);
		List<String> during = this.store.insert(IntStream.range(0, 10).mapToObj((i) -> job(TYPE).build()).toList());
		flaky.recover();
		during.forEach((id) -> awaitState(id, JobState.COMPLETED));
		assertThat(worker.isRunning()).isTrue();
	}

	// ---- robustness

	@Test
	void oversizedErrorsAreCutToSizeAndDoNotHoldUpOtherOutcomes() {
		start(new HandlerRegistration(TYPE, "default", 0, null, (attempt) -> {
			if (attempt.job().argsJson().contains("oversized")) {
				throw new IllegalStateException("x");
			}
		}, (job, failure) -> new JobError("a".repeat(300), "m\u0000".repeat(10_000), ErrorCode.RETRY,
				Map.of("blob", "d".repeat(10_000))), RetryPolicy.DEFAULT));
		String oversized = enqueue(job(TYPE).args("[\"oversized\"]").policy(quickRetries(1)));
		String normal = enqueue(job(TYPE));
		Job failed = awaitState(oversized, JobState.DISCARDED);
		awaitState(normal, JobState.COMPLETED);
		assertThat(failed.lastError().type()).isEqualTo("a".repeat(255));
		assertThat(failed.lastError().message()).hasSizeLessThanOrEqualTo(2000).startsWith("m\uFFFDm\uFFFD");
		assertThat(failed.lastError().details()).containsOnlyKeys("truncated");
		assertThat(new JdbcTemplate(this.schema.dataSource()).queryForObject(
				"SELECT last_error_type FROM " + this.schema.tableName() + " WHERE state = 'discarded'", String.class))
			.hasSize(255);
		awaitEvents(oversized, 1);
		assertThat(this.listener.kinds(oversized)).containsExactly("discarded");
	}

	@Test
	void outcomeTheDatabaseRejectsIsDroppedAndReapedWhileOthersAreWritten() {
		RejectingDataSource rejecting = new RejectingDataSource(this.schema.dataSource(), "POISON");
		JdbcJobStore rejectingStore = new JdbcJobStore(rejecting, this.schema.settings());
		CountDownLatch poisonFailed = new CountDownLatch(1);
		Worker worker = new Worker(rejectingStore, List.of(new HandlerRegistration(TYPE, "default", 0,
				Duration.ofMillis(600), (attempt) -> {
					if (attempt.job().argsJson().contains("poison")) {
						poisonFailed.countDown();
						throw new IllegalStateException("POISON");
					}
				}, null, RetryPolicy.DEFAULT)), settings("node-1"), this.listener, RetryDelayOverride.NONE);
		startWorker(worker);
		String poison = enqueue(job(TYPE).args("[\"poison\"]").policy(quickRetries(1)));
		List<String> normal = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			normal.add(enqueue(job(TYPE)));
		}
		normal.forEach((id) -> awaitState(id, JobState.COMPLETED));
		await().atMost(TIMEOUT).until(() -> rejecting.rejected() >= 1);
		// dropped, not retried forever: its reservation expires and the reaper records the attempt
		Job reaped = awaitState(poison, JobState.DISCARDED);
		assertThat(reaped.attempt()).isEqualTo(1);
		assertThat(reaped.lastError().type()).isEqualTo("visibility_timeout");
		awaitEvents(poison, 1);
		assertThat(this.listener.kinds(poison)).containsExactly("discarded");
		String later = enqueue(job(TYPE));
		awaitState(later, JobState.COMPLETED);
	}

	@Test
	void outcomesWaitOutAnOutageInsteadOfBeingDropped() throws Exception {
		FlakyDataSource flaky = new FlakyDataSource(this.schema.dataSource());
		JdbcJobStore flakyStore = new JdbcJobStore(flaky, this.schema.settings());
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Worker worker = new Worker(flakyStore, List.of(handler(TYPE, (attempt) -> {
			started.countDown();
			release.await(20, TimeUnit.SECONDS);
		})), settings("node-1"), this.listener, RetryDelayOverride.NONE);
		startWorker(worker);
		String id = enqueue(job(TYPE));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		flaky.breakDown();
		int refused = flaky.refused();
		release.countDown();
		await().atMost(TIMEOUT).until(() -> flaky.refused() > refused + 3);
		assertThat(this.store.find(id).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
		flaky.recover();
		Job job = awaitState(id, JobState.COMPLETED);
		assertThat(job.attempt()).isEqualTo(1);
		awaitEvents(id, 1);
		assertThat(this.listener.kinds(id)).containsExactly("completed");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "P1000Y", "P100000Y", "P10000000000Y" })
	void hugeRetryDelaysSaturateAtTheLatestStorableTime(String interval) {
		Duration delay = dev.ojs.retry.IsoDurations.parse(interval);
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(2)
			.initialInterval(delay)
			.backoffCoefficient(1.0)
			.maxInterval(delay)
			.jitter(false)
			.build()
			.effective();
		start(handler(TYPE, (attempt) -> {
			throw new IllegalStateException("boom");
		}));
		String id = enqueue(job(TYPE).policy(policy));
		Job job = awaitState(id, JobState.RETRYABLE);
		Instant failedAt = job.lastError().timestamp();
		Instant expected = (delay.compareTo(Duration.between(failedAt, Timestamps.MAX)) < 0) ? failedAt.plus(delay)
				: Timestamps.MAX;
		assertThat(job.nextRetryAt()).isEqualTo(expected);
		awaitEvents(id, 1);
		RecordingListener.Event event = this.listener.of(id).get(0);
		assertThat(event.nextRetryAt()).isEqualTo(expected);
		assertThat(event.delay()).isEqualTo(Duration.between(failedAt, expected));
		await().atMost(TIMEOUT).until(() -> this.workers.get(0).status().activeByQueue().get("default") == 0);
	}

	@Test
	void listenerThatThrowsErrorsNeverStopsTheCompleter() {
		JobListener failing = new JobListener() {

			@Override
			public void completed(Job job, Duration handlerDuration) {
				AbstractWorkerTests.this.listener.completed(job, handlerDuration);
				throw new AssertionError("listener bug");
			}

		};
		startWorker(new Worker(this.store, List.of(handler(TYPE, (attempt) -> {
		})), settings("node-1"), failing, RetryDelayOverride.NONE));
		for (int i = 0; i < 3; i++) {
			String id = enqueue(job(TYPE));
			awaitState(id, JobState.COMPLETED);
			awaitEvents(id, 1);
		}
	}

	@Test
	void classifierThatThrowsAnErrorStillRecordsTheFailure() {
		start(new HandlerRegistration(TYPE, "default", 0, null, (attempt) -> {
			throw new IllegalStateException("boom");
		}, (job, failure) -> {
			throw new AssertionError("classifier bug");
		}, RetryPolicy.DEFAULT));
		String id = enqueue(job(TYPE).policy(quickRetries(1)));
		Job job = awaitState(id, JobState.DISCARDED);
		assertThat(job.lastError().type()).isEqualTo(IllegalStateException.class.getName());
	}

	@Test
	void workerThreadsKeepTheJvmAliveUntilStopEndsThem() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		Worker worker = start(handler(TYPE, (attempt) -> {
		}));
		awaitState(enqueue(job(TYPE)), JobState.COMPLETED);
		List<Thread> threads = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.getName().startsWith("ojs-"))
			.toList();
		List<String> engineThreads = threads.stream().filter((thread) -> !thread.isDaemon()).map(Thread::getName).toList();
		assertThat(engineThreads).contains("ojs-default-poller", "ojs-completer-node-1", "ojs-heartbeat-node-1",
				"ojs-rescuer-node-1", "ojs-pruner-node-1");
		if (this.store.platform() == dev.ojs.jdbc.JdbcPlatform.POSTGRESQL) {
			assertThat(engineThreads).anyMatch((name) -> name.startsWith("ojs-listen-"));
		}
		worker.stop();
		assertThat(threads.stream().filter((thread) -> !thread.isDaemon() && thread.isAlive()).map(Thread::getName))
			.as("non-daemon threads alive after stop()")
			.isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> threads.stream().noneMatch(Thread::isAlive));
	}

	@Test
	void heartbeatWarnsWhenTheReservationIsGone(CapturedOutput output) throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		java.util.concurrent.atomic.AtomicReference<LocalAttempt> running =
				new java.util.concurrent.atomic.AtomicReference<>();
		Worker worker = new Worker(this.store, List.of(new HandlerRegistration(TYPE, "default", 0,
				Duration.ofMillis(600), (attempt) -> {
					// the first attempt: on a busy machine heartbeats can lag past the 600 ms
					// timeout, so this node's rescuer may retry the job and a second attempt start
					running.compareAndSet(null, (LocalAttempt) attempt);
					started.countDown();
					release.await(20, TimeUnit.SECONDS);
				}, null, RetryPolicy.DEFAULT)), settings("node-1"), this.listener, RetryDelayOverride.NONE);
		startWorker(worker);
		String id = enqueue(job(TYPE));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		// another node's reaper finds the reservation expired (a stalled node) and discards the job
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		await().atMost(TIMEOUT).until(() -> {
			jdbc.update("UPDATE " + this.schema.tableName() + " SET locked_until = ? WHERE state = 'active'",
					java.sql.Timestamp.from(Instant.now().minus(Duration.ofDays(2))));
			this.store.reapExpired(10, (job) -> new dev.ojs.job.AttemptFailure(job, JobState.DISCARDED, null,
					List.of(new ErrorEntry(job.attempt(), "visibility_timeout", "expired", ErrorCode.RETRY,
							this.store.now(), Map.of())), false, this.store.now()));
			return this.store.find(id).orElseThrow().state() == JobState.DISCARDED;
		});
		await().atMost(TIMEOUT).until(() -> output.getAll().contains("lost the reservation of job " + id + " attempt 1"));
		// the worker knows: no more heartbeats for it, and its outcome is stale
		assertThat(running.get().isReservationLost()).isTrue();
		release.countDown();
		await().atMost(TIMEOUT).until(() -> this.workers.get(0).status().activeByQueue().get("default") == 0);
		stopWorkers();
		assertThat(this.store.find(id).orElseThrow().state()).isEqualTo(JobState.DISCARDED);
		// the late completion of the lost attempt is rejected: never reported as completed (this
		// node's own reaper may have reaped the expired reservation first, reporting a retry)
		assertThat(this.listener.kinds(id)).doesNotContain("completed");
	}

	@Test
	void statusReportsQueuesTypesAndRunningJobs() {
		CountDownLatch release = new CountDownLatch(1);
		Worker worker = start(settings("node-s", 3), handler(TYPE, (attempt) -> release.await(10, TimeUnit.SECONDS)));
		enqueue(job(TYPE));
		await().atMost(TIMEOUT).until(() -> worker.status().activeByQueue().get("default") == 1);
		WorkerStatus status = worker.status();
		assertThat(status.nodeId()).isEqualTo("node-s");
		assertThat(status.running()).isTrue();
		assertThat(status.queues()).isEqualTo(Map.of("default", 3));
		assertThat(status.types()).containsExactly(TYPE);
		release.countDown();
	}

	@Test
	void slotsStayTakenUntilTheOutcomeIsWrittenAndStopWritesPendingOutcomes() throws Exception {
		CountDownLatch gate = new CountDownLatch(1);
		// completions wait at the gate; claims and everything else pass
		DataSource gated = new InterceptingDataSource(this.schema.dataSource(), (call) -> {
			String sql = call.sql();
			if (sql != null && sql.contains("SET state = 'completed'")) {
				gate.await(30, TimeUnit.SECONDS);
			}
			return call.proceed();
		});
		AtomicInteger runs = new AtomicInteger();
		Worker worker = startWorker(new Worker(new JdbcJobStore(gated, this.schema.settings()),
				List.of(handler(TYPE, (attempt) -> runs.incrementAndGet())), settings("node-1", 4), this.listener,
				RetryDelayOverride.NONE));
		try {
			this.store.insert(IntStream.range(0, 100).mapToObj((i) -> job(TYPE).build()).toList());
			// concurrency 4: 2 x 4 reservations plus a prefetch of 8 x 4 (instant handlers), then nothing (a
			// queue without a concurrency limit is not handed over, so the completion at the gate takes no slot)
			int most = 2 * 4 + Slots.PREFETCH_FACTOR * 4;
			await().atMost(TIMEOUT).until(() -> runs.get() >= most);
			Thread.sleep(500);
			assertThat(runs.get()).as("attempts run while no outcome could be written").isEqualTo(most);
			assertThat(worker.status().activeByQueue()).containsEntry("default", 0);
			Thread opener = new Thread(() -> {
				try {
					Thread.sleep(300);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				gate.countDown();
			});
			opener.start();
			worker.stop();
			opener.join();
		}
		finally {
			gate.countDown();
		}
		Map<JobState, Long> states = this.store.countByQueueAndState().get("default");
		// the gate may open before the poller stops (stop closes the LISTEN connection first)
		assertThat(states.get(JobState.COMPLETED)).as("every attempt run was written").isEqualTo((long) runs.get());
		assertThat(states.getOrDefault(JobState.COMPLETED, 0L) + states.getOrDefault(JobState.AVAILABLE, 0L))
			.isEqualTo(100L);
	}

	// ---- helpers

	Worker start(HandlerRegistration... handlers) {
		return start(settings("node-1"), handlers);
	}

	Worker start(WorkerSettings settings, HandlerRegistration... handlers) {
		return startWorker(new Worker(this.store, List.of(handlers), settings, this.listener, RetryDelayOverride.NONE));
	}

	Worker startWorker(Worker worker) {
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	static HandlerRegistration handler(String type, JobHandler handler) {
		return new HandlerRegistration(type, "default", 0, null, handler, null, RetryPolicy.DEFAULT);
	}

	static WorkerSettings settings(String nodeId) {
		return settings(nodeId, 10);
	}

	static WorkerSettings settings(String nodeId, int concurrency) {
		return new WorkerSettings(nodeId, Map.of("default", concurrency), Duration.ofMillis(200), Duration.ofSeconds(30),
				Duration.ofSeconds(2), retention());
	}

	static RetentionSettings retention() {
		return new RetentionSettings(Duration.ofHours(1), Duration.ofDays(7), Duration.ofDays(180), 10_000,
				Duration.ofHours(1));
	}

	String enqueue(Jobs job) {
		return this.store.insert(List.of(job.build())).get(0);
	}

	/** Starts a worker with a 30 s poll interval and returns once its poller idles for seconds. */
	List<Job> startIdleWorker() {
		return startIdleWorker(new ClaimObservingStore(this.schema.dataSource(), this.schema.settings()));
	}

	/** Starts a worker on {@code observed} with a 30 s poll interval and returns once its poller idles for seconds. */
	List<Job> startIdleWorker(ClaimObservingStore observed) {
		List<Job> started = new CopyOnWriteArrayList<>();
		startWorker(new Worker(observed, List.of(handler(TYPE, (attempt) -> started.add(attempt.job()))),
				new WorkerSettings("node-1", Map.of("default", 4), Duration.ofSeconds(30), Duration.ofSeconds(30),
						Duration.ofSeconds(2), retention()),
				this.listener, RetryDelayOverride.NONE));
		// the poller backs off (it polls after 5, 10, 20, ... ms): once a claim came more than
		// 1.2 s after the one before, the idle wait after it lasts at least 2.4 s, and only a
		// wake-up can start a job sooner
		await().atMost(TIMEOUT).until(() -> observed.lastGap().toMillis() > 1200);
		return started;
	}

	/** A store that counts the claims it has answered, and when each answered. */
	static final class ClaimObservingStore extends JdbcJobStore {

		private final List<Long> answeredAtNanos = new CopyOnWriteArrayList<>();

		ClaimObservingStore(DataSource dataSource, dev.ojs.jdbc.JdbcStoreSettings settings) {
			super(dataSource, settings);
		}

		@Override
		public List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit) {
			try {
				return super.claim(nodeId, queue, visibilityByType, limit);
			}
			finally {
				this.answeredAtNanos.add(System.nanoTime());
			}
		}

		int claims() {
			return this.answeredAtNanos.size();
		}

		/** Time between the last two claims answered; zero before two. */
		Duration lastGap() {
			int n = this.answeredAtNanos.size();
			return (n < 2) ? Duration.ZERO
					: Duration.ofNanos(this.answeredAtNanos.get(n - 1) - this.answeredAtNanos.get(n - 2));
		}

	}

	Job awaitState(String id, JobState state) {
		await().atMost(TIMEOUT).until(() -> this.store.find(id).map(Job::state).orElse(null) == state);
		return this.store.find(id).orElseThrow();
	}

	void awaitEvents(String id, int count) {
		await().atMost(TIMEOUT).until(() -> this.listener.of(id).size() >= count);
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

}

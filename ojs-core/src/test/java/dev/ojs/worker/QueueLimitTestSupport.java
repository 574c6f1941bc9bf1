package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.MutableClock;

import static dev.ojs.testsupport.Jobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the tests of queue limits share: one limited queue on a clean table and queue table,
 * stores on a controllable clock, jobs and in-process workers of that queue, and the
 * measures of workers the tests of limits and sequences take.
 */
abstract class QueueLimitTestSupport extends DatabaseTests {

	static final String TYPE = "test.job";

	static final String QUEUE = "limited";

	static final Map<String, Duration> VISIBILITY = Map.of(TYPE, Duration.ofMinutes(5));

	/** How long workers get for a queue's jobs. */
	static final Duration TIMEOUT = Duration.ofSeconds(60);

	final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

	private final List<Worker> workers = new CopyOnWriteArrayList<>();

	@BeforeEach
	void clearTables() {
		this.schema.clear();
		JdbcTemplate jdbc = new JdbcTemplate(this.schema.dataSource());
		jdbc.update("DELETE FROM " + this.schema.settings().queuesTableName());
		jdbc.update("DELETE FROM " + this.schema.settings().limitsTableName());
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
		this.workers.clear();
	}

	/** A store (a node) on the test's clock. */
	JdbcJobStore store() {
		return new JdbcJobStore(this.schema.dataSource(), this.schema.settings(), this.clock);
	}

	List<String> insert(JdbcJobStore store, int count) {
		List<NewJob> jobs = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			jobs.add(job(TYPE).queue(QUEUE).args("[" + i + "]").build());
		}
		return store.insert(jobs);
	}

	/**
	 * Starts an in-process worker (a node on the system clock) with 10 slots for the queue.
	 * @return the worker's store
	 */
	JdbcJobStore startWorker(JobHandler handler, Duration pollInterval) {
		HandlerRegistration registration = new HandlerRegistration(TYPE, QUEUE, 0, null, handler, null,
				RetryPolicy.DEFAULT, false);
		JdbcJobStore store = this.schema.newStore();
		Worker worker = new Worker(store, List.of(registration),
				new WorkerSettings(null, Map.of(QUEUE, 10), pollInterval, Duration.ofSeconds(30), Duration.ofSeconds(2),
						RetentionSettings.defaults()),
				new RecordingListener(), RetryDelayOverride.NONE);
		this.workers.add(worker);
		worker.start();
		return store;
	}

	/**
	 * Runs the jobs {@code insert} enqueues on in-process workers on two nodes (10 slots each,
	 * polling every {@code pollInterval}) whose handler takes 50 ms and counts the jobs running
	 * at once, until {@code operator} finds them all completed.
	 * @return the most jobs that ran at once
	 */
	int mostRunningOnTwoNodes(JdbcJobStore operator, Duration pollInterval, Supplier<List<String>> insert) {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger maxRunning = new AtomicInteger();
		JobHandler handler = (attempt) -> {
			maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				Thread.sleep(50);
			}
			finally {
				running.decrementAndGet();
			}
		};
		startWorker(handler, pollInterval);
		startWorker(handler, pollInterval);
		List<String> ids = insert.get();
		await().atMost(TIMEOUT)
			.until(() -> ids.stream().allMatch((id) -> operator.find(id).orElseThrow().state() == JobState.COMPLETED));
		return maxRunning.get();
	}

	/**
	 * How soon a held job starts once what holds it ends: waits {@code held} while a worker's
	 * poller idles (its wait doubling from 5 ms towards the poll interval), checks the job has
	 * not started, ends what holds it through {@code end}, and waits for the job's start.
	 * @param started when the held job started ({@link System#nanoTime()}), 0 until it has
	 * @return from the end to that start
	 */
	static Duration fromEndToStart(Duration held, LongSupplier started, Runnable end) {
		await().pollDelay(held).atMost(held.plusSeconds(5)).until(() -> true);
		assertThat(started.getAsLong()).as("the job is held").isZero();
		long ended = System.nanoTime();
		end.run();
		await().atMost(TIMEOUT).until(() -> started.getAsLong() != 0);
		return Duration.ofNanos(started.getAsLong() - ended);
	}


	/**
	 * A limit's bound ({@code active_max} on its row): a claim counts the active jobs only when
	 * the claims since the last count could reach the limit, jobs that ended since are taken off
	 * at that count, and a limit set over jobs already running counts them at its first claim.
	 * {@code store} holds 30 due jobs of {@link #TYPE} in {@link #QUEUE}; {@code middle} is the
	 * claim that the bound alone admits.
	 */
	static void assertCountedOnlyWhenTheLimitCouldBind(JdbcJobStore store, IntConsumer setLimit,
			Map<String, Duration> middle, Supplier<Integer> activeMax, LongSupplier active) {
		List<Job> unlimited = store.claim("a", QUEUE, VISIBILITY, 10);
		setLimit.accept(5);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 5)).as("10 already running").isEmpty();
		store.complete(unlimited.subList(0, 8), false);
		setLimit.accept(10);
		List<Job> first = store.claim("a", QUEUE, VISIBILITY, 3);
		assertThat(first).hasSize(3);
		assertThat(activeMax.get()).isEqualTo(5);
		store.complete(first, false);
		assertThat(store.claim("a", QUEUE, middle, 4)).hasSize(4);
		assertThat(activeMax.get()).as("not counted: 5 + 4 <= 10, the 3 ended still in").isEqualTo(9);
		assertThat(store.claim("a", QUEUE, VISIBILITY, 10)).as("counted: 6 active").hasSize(4);
		assertThat(active.getAsLong()).isEqualTo(10);
		assertThat(activeMax.get()).isEqualTo(10);
	}

	/** The {@code active_max} of a row of {@code table} (the queues' or the limits'). */
	Integer activeMax(String table, String name) {
		return new JdbcTemplate(this.schema.dataSource())
			.queryForObject("SELECT active_max FROM " + table + " WHERE name = ?", Integer.class, name);
	}

}

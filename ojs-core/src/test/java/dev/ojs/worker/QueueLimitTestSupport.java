package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.testsupport.DatabaseTests;
import dev.ojs.testsupport.MutableClock;

import static dev.ojs.testsupport.Jobs.job;

/**
 * What the tests of queue limits share: one limited queue on a clean table and queue table,
 * stores on a controllable clock, jobs and in-process workers of that queue.
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
		new JdbcTemplate(this.schema.dataSource()).update("DELETE FROM " + this.schema.settings().queuesTableName());
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

}

package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.JobContext;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One queue limited to 3 at once on all nodes ({@code ojs.queues.mixed.concurrency},
 * ojs-queue-config.md §6.2, L4-RATE-001), and one job type limited to 3 at once on all nodes
 * ({@code @OjsJob(globalConcurrency = 3)}) in a queue without a limit, each served by the
 * in-process worker (8 slots) and by three HTTP workers fetching any type over the binding: the
 * limited jobs running at once, counted by both kinds of worker together and sampled in the
 * database, never exceed 3. Some jobs are of a type only the HTTP workers run, so both kinds run
 * jobs of the queue whoever wins the races for free slots. Subclasses choose the database.
 */
@SpringBootTest(classes = { HttpBindingTestApplication.class, MixedWorkersConcurrencyTests.MixedJobs.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.queues." + MixedWorkersConcurrencyTests.QUEUE + ".concurrency=3",
				"ojs.worker.queues." + MixedWorkersConcurrencyTests.QUEUE + "=8",
				"ojs.worker.queues." + MixedWorkersConcurrencyTests.TYPED_QUEUE + "=8" })
abstract class MixedWorkersConcurrencyTests {

	static final String QUEUE = "mixed";

	static final String TYPE = "mixed.job";

	/** A queue without a limit, of {@link #LIMITED_TYPE}'s jobs. */
	static final String TYPED_QUEUE = "typed";

	/** Limited to 3 at once on all nodes by its handler here. */
	static final String LIMITED_TYPE = "typed.job";

	/** Run by the HTTP workers only: no handler here. */
	static final String TYPE_HTTP_ONLY = "mixed.http";

	static final int JOBS = 60;

	static final int HTTP_ONLY_JOBS = 10;

	/** Jobs running now, in process and over HTTP. */
	static final AtomicInteger running = new AtomicInteger();

	static final AtomicInteger maxRunning = new AtomicInteger();

	static final AtomicInteger inProcess = new AtomicInteger();

	@LocalServerPort
	int port;

	@Autowired
	JobStore store;

	@Autowired
	OjsTemplate template;

	@Autowired
	OjsQueues queues;

	@Autowired
	DataSource dataSource;

	@Test
	void httpAndInProcessWorkersTogetherKeepToTheQueuesLimit() throws Exception {
		assertThat(this.queues.concurrency(QUEUE)).as("from ojs.queues.mixed.concurrency").isEqualTo(3);
		runWithBothKinds(QUEUE, TYPE, "queue = ?", QUEUE, (type) -> true);
	}

	@Test
	void httpAndInProcessWorkersTogetherKeepToTheTypesLimit() throws Exception {
		assertThat(this.store.typeConcurrencies()).as("from @OjsJob(globalConcurrency = 3)").containsEntry(LIMITED_TYPE, 3);
		assertThat(this.queues.concurrency(TYPED_QUEUE)).isNull();
		runWithBothKinds(TYPED_QUEUE, LIMITED_TYPE, "type = ?", LIMITED_TYPE, LIMITED_TYPE::equals);
	}

	/**
	 * Enqueues {@value #JOBS} jobs into {@code queue}, of {@code type} and some only the HTTP
	 * workers run, runs them with both kinds of worker, and checks that the limited jobs
	 * ({@code limited} by type; {@code where} with {@code value} in the database) never ran more
	 * than 3 at once.
	 */
	private void runWithBothKinds(String queue, String type, String where, String value, Predicate<String> limited)
			throws Exception {
		running.set(0);
		maxRunning.set(0);
		inProcess.set(0);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			ids.add(this.template.enqueue((i % (JOBS / HTTP_ONLY_JOBS) == 0) ? TYPE_HTTP_ONLY : type, List.of(i),
					JobOptions.builder().queue(queue).build()));
		}
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		String table = ((JdbcJobStore) this.store).settings().tableName();
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		AtomicBoolean done = new AtomicBoolean();
		AtomicInteger acked = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int w = 0; w < 3; w++) {
				workers.add(threads.submit(() -> {
					while (!done.get()) {
						OjsClient.Response fetched = client.post("/ojs/v1/workers/fetch",
								Map.of("queues", List.of(queue), "count", 2));
						assertThat(fetched.status()).as(fetched.text()).isEqualTo(200);
						JsonNode jobs = fetched.body().path("jobs");
						if (jobs.isEmpty()) {
							Thread.sleep(5);
							continue;
						}
						int counted = 0;
						for (JsonNode job : jobs) {
							counted += limited.test(job.path("type").stringValue()) ? 1 : 0;
						}
						maxRunning.accumulateAndGet(running.addAndGet(counted), Math::max);
						Thread.sleep(20);
						running.addAndGet(-counted);
						for (JsonNode job : jobs) {
							OjsClient.Response ack = client.post("/ojs/v1/workers/ack",
									Map.of("job_id", job.path("id").stringValue()));
							assertThat(ack.status()).as(ack.text()).isEqualTo(200);
							acked.incrementAndGet();
						}
					}
					return null;
				}));
			}
			List<Long> samples = new CopyOnWriteArrayList<>();
			workers.add(threads.submit(() -> {
				while (!done.get()) {
					samples.add(jdbc.queryForObject("SELECT count(*) FROM " + table + " WHERE state = ? AND " + where,
							Long.class, JobState.ACTIVE.value(), value));
				}
				return null;
			}));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ids.stream().allMatch((id) -> this.store.find(id).orElseThrow().state() == JobState.COMPLETED));
			done.set(true);
			for (Future<?> worker : workers) {
				worker.get();
			}
			assertThat(samples).as("active jobs sampled in the database").isNotEmpty().allMatch((count) -> count <= 3);
		}
		finally {
			done.set(true);
			threads.shutdownNow();
		}
		assertThat(maxRunning.get()).as("jobs running at once, both kinds of worker").isBetween(2, 3);
		assertThat(acked.get()).as("run over HTTP").isGreaterThanOrEqualTo(HTTP_ONLY_JOBS);
		assertThat(inProcess.get()).as("run in process").isPositive();
		assertThat(acked.get() + inProcess.get()).isEqualTo(JOBS);
	}

	/** The in-process handler of the limited queue. */
	@Configuration(proxyBeanMethods = false)
	static class MixedJobs {

		@Bean
		MixedHandler mixedHandler() {
			return new MixedHandler();
		}

	}

	static class MixedHandler {

		@OjsJob(type = TYPE, queue = QUEUE)
		void run(int i, JobContext context) throws InterruptedException {
			runLimited();
		}

		@OjsJob(type = LIMITED_TYPE, queue = TYPED_QUEUE, globalConcurrency = 3)
		void runTyped(int i, JobContext context) throws InterruptedException {
			runLimited();
		}

		private void runLimited() throws InterruptedException {
			maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				Thread.sleep(20);
			}
			finally {
				running.decrementAndGet();
				inProcess.incrementAndGet();
			}
		}

	}

}

package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
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
import dev.ojs.job.TypeLimit;
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
 * ({@code @OjsJob(globalConcurrency = 3)}) and one limited to 1 at once per concurrency key
 * ({@code @OjsJob(globalConcurrencyPerKey = 1)}), in queues without a limit, each served by the
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
				"ojs.worker.queues." + MixedWorkersConcurrencyTests.TYPED_QUEUE + "=8",
				"ojs.worker.queues." + MixedWorkersConcurrencyTests.KEYED_QUEUE + "=8" })
abstract class MixedWorkersConcurrencyTests {

	static final String QUEUE = "mixed";

	static final String TYPE = "mixed.job";

	/** A queue without a limit, of {@link #LIMITED_TYPE}'s jobs. */
	static final String TYPED_QUEUE = "typed";

	/** Limited to 3 at once on all nodes by its handler here. */
	static final String LIMITED_TYPE = "typed.job";

	/** A queue without a limit, of {@link #KEYED_TYPE}'s jobs. */
	static final String KEYED_QUEUE = "keyed";

	/** Limited to 1 at once per concurrency key on all nodes by its handler here. */
	static final String KEYED_TYPE = "keyed.job";

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
		int most = runWithBothKinds(QUEUE, TYPE, (i) -> null, (type) -> true, () -> active("queue = ?", QUEUE), 3);
		assertThat(most).as("jobs running at once, both kinds of worker").isBetween(2, 3);
	}

	@Test
	void httpAndInProcessWorkersTogetherKeepToTheTypesLimit() throws Exception {
		assertThat(this.store.typeLimits()).as("from @OjsJob(globalConcurrency = 3)")
			.containsEntry(LIMITED_TYPE, new TypeLimit(3, null));
		assertThat(this.queues.concurrency(TYPED_QUEUE)).isNull();
		int most = runWithBothKinds(TYPED_QUEUE, LIMITED_TYPE, (i) -> null, LIMITED_TYPE::equals,
				() -> active("type = ?", LIMITED_TYPE), 3);
		assertThat(most).as("jobs running at once, both kinds of worker").isBetween(2, 3);
	}

	/**
	 * A type limited to 1 running job per concurrency key ({@code @OjsJob(globalConcurrencyPerKey
	 * = 1)}), its jobs spread over 10 keys: never two jobs of one key at once, keys side by side.
	 */
	@Test
	void httpAndInProcessWorkersTogetherKeepToTheLimitPerKey() throws Exception {
		assertThat(this.store.typeLimits()).containsEntry(KEYED_TYPE, new TypeLimit(null, 1));
		// the option over HTTP (a held job, which no worker runs)
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		OjsClient.Response enqueued = client.post("/ojs/v1/jobs", Map.of("type", KEYED_TYPE, "args", List.of(-1),
				"options", Map.of("queue", KEYED_QUEUE, "concurrency_key", "c0", "pending", true)));
		assertThat(enqueued.status()).as(enqueued.text()).isEqualTo(201);
		String table = ((JdbcJobStore) this.store).settings().tableName();
		assertThat(new JdbcTemplate(this.dataSource).queryForObject("SELECT concurrency_key FROM " + table
				+ " WHERE type = ?", String.class, KEYED_TYPE)).isEqualTo("c0");
		int most = runWithBothKinds(KEYED_QUEUE, KEYED_TYPE, (i) -> "c" + (i % 10), KEYED_TYPE::equals,
				this::mostActiveOfOneKey, 1);
		assertThat(most).as("keys side by side").isGreaterThan(1);
	}

	/**
	 * Fairness between kinds of worker (issue 30): the in-process worker hands the slots of the
	 * queue limited to 3 over from job to job, yet an HTTP worker that found the queue full gets
	 * the next free slot. Its {@value #HTTP_ONLY_JOBS} jobs, enqueued ahead of a backlog of 300
	 * in-process jobs, all run while a quarter of that backlog or more still waits (87–180 of the
	 * 300 had run on a loaded machine).
	 */
	@Test
	void anHttpWorkerTakesItsTurnOnALimitedQueueTheNodeHandsOver() throws Exception {
		inProcess.set(0);
		List<String> httpOnly = new ArrayList<>();
		for (int i = 0; i < HTTP_ONLY_JOBS; i++) {
			httpOnly.add(this.template.enqueue(TYPE_HTTP_ONLY, List.of(i), JobOptions.builder().queue(QUEUE).build()));
		}
		List<String> backlog = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			backlog.add(this.template.enqueue(TYPE, List.of(i), JobOptions.builder().queue(QUEUE).build()));
		}
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		int acked = 0;
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (acked < HTTP_ONLY_JOBS && System.nanoTime() < deadline) {
			OjsClient.Response fetched = client.post("/ojs/v1/workers/fetch",
					Map.of("queues", List.of(QUEUE), "types", List.of(TYPE_HTTP_ONLY), "count", 1));
			assertThat(fetched.status()).as(fetched.text()).isEqualTo(200);
			JsonNode jobs = fetched.body().path("jobs");
			if (jobs.isEmpty()) {
				Thread.sleep(5);
				continue;
			}
			Thread.sleep(20);
			assertThat(client.post("/ojs/v1/workers/ack", Map.of("job_id", jobs.get(0).path("id").stringValue())).status())
				.isEqualTo(200);
			acked++;
		}
		int ranInProcess = inProcess.get();
		assertThat(acked).isEqualTo(HTTP_ONLY_JOBS);
		// without turns the node hands every slot over until its backlog is done: all 300 run first
		assertThat(ranInProcess).as("in-process jobs run by the time the HTTP worker's last job ended")
			.isLessThan(backlog.size() * 3 / 4);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> backlog.stream().allMatch((id) -> this.store.find(id).orElseThrow().state() == JobState.COMPLETED));
		assertThat(httpOnly).allMatch((id) -> this.store.find(id).orElseThrow().state() == JobState.COMPLETED);
	}

	/**
	 * Sequences over HTTP (issue 30): jobs enqueued with the option {@code sequence_key} are
	 * fetched one at a time in enqueue order, the next only once the one before is acked.
	 */
	@Test
	void httpFetchesTakeASequenceOneJobAtATimeInEnqueueOrder() {
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			OjsClient.Response enqueued = client.post("/ojs/v1/jobs", Map.of("type", TYPE_HTTP_ONLY, "args", List.of(i),
					"options", Map.of("queue", "sequenced", "sequence_key", "account-1")));
			assertThat(enqueued.status()).as(enqueued.text()).isEqualTo(201);
			ids.add(enqueued.body().path("job").path("id").stringValue());
		}
		String table = ((JdbcJobStore) this.store).settings().tableName();
		assertThat(new JdbcTemplate(this.dataSource).queryForList("SELECT sequence_key FROM " + table
				+ " WHERE queue = 'sequenced'", String.class)).containsOnly("account-1").hasSize(3);
		for (String id : ids) {
			OjsClient.Response fetched = client.post("/ojs/v1/workers/fetch",
					Map.of("queues", List.of("sequenced"), "count", 10));
			assertThat(fetched.body().path("jobs")).as(fetched.text()).hasSize(1);
			assertThat(fetched.body().path("jobs").get(0).path("id").stringValue()).isEqualTo(id);
			OjsClient.Response held = client.post("/ojs/v1/workers/fetch",
					Map.of("queues", List.of("sequenced"), "count", 10));
			assertThat(held.body().path("jobs")).as("held behind the active job").isEmpty();
			assertThat(client.post("/ojs/v1/workers/ack", Map.of("job_id", id)).status()).isEqualTo(200);
		}
	}

	private long active(String where, String value) {
		Long count = new JdbcTemplate(this.dataSource).queryForObject("SELECT count(*) FROM "
				+ ((JdbcJobStore) this.store).settings().tableName() + " WHERE state = ? AND " + where, Long.class,
				JobState.ACTIVE.value(), value);
		return (count != null) ? count : 0;
	}

	private long mostActiveOfOneKey() {
		return new JdbcTemplate(this.dataSource).queryForList("SELECT count(*) FROM "
				+ ((JdbcJobStore) this.store).settings().tableName() + " WHERE state = ? AND type = ? GROUP BY concurrency_key",
				Long.class, JobState.ACTIVE.value(), KEYED_TYPE).stream().mapToLong(Long::longValue).max().orElse(0);
	}

	/**
	 * Enqueues {@value #JOBS} jobs into {@code queue} (job {@code i} with concurrency key
	 * {@code keyOf(i)}), of {@code type} and some only the HTTP workers run, runs them with both
	 * kinds of worker, and checks that {@code sample} (of the database) never exceeded
	 * {@code most}; returns the most jobs ({@code limited} by type) the workers ran at once.
	 */
	private int runWithBothKinds(String queue, String type, IntFunction<String> keyOf, Predicate<String> limited,
			Callable<Long> sample, int most) throws Exception {
		running.set(0);
		maxRunning.set(0);
		inProcess.set(0);
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			ids.add(this.template.enqueue((i % (JOBS / HTTP_ONLY_JOBS) == 0) ? TYPE_HTTP_ONLY : type, List.of(i),
					JobOptions.builder().queue(queue).concurrencyKey(keyOf.apply(i)).build()));
		}
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
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
					samples.add(sample.call());
				}
				return null;
			}));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ids.stream().allMatch((id) -> this.store.find(id).orElseThrow().state() == JobState.COMPLETED));
			done.set(true);
			for (Future<?> worker : workers) {
				worker.get();
			}
			assertThat(samples).as("active jobs sampled in the database").isNotEmpty().allMatch((count) -> count <= most);
		}
		finally {
			done.set(true);
			threads.shutdownNow();
		}
		assertThat(acked.get()).as("run over HTTP").isGreaterThanOrEqualTo(HTTP_ONLY_JOBS);
		assertThat(inProcess.get()).as("run in process").isPositive();
		assertThat(acked.get() + inProcess.get()).isEqualTo(JOBS);
		return maxRunning.get();
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

		@OjsJob(type = KEYED_TYPE, queue = KEYED_QUEUE, globalConcurrencyPerKey = 1)
		void runKeyed(int i, JobContext context) throws InterruptedException {
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

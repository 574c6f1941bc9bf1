package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsValidationException;
import dev.ojs.job.RateLimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The parts of Level 4 (advanced) of ojs-conformance.md the binding implements: priorities,
 * named ones too (spec README decision 19), batch enqueue (decision 18), queue pause,
 * resume, exact counts and throughput (decision 20, L4-STATS-001), unique jobs (reject, ignore,
 * replace; decision 21) and per-queue rate limits (decision 22, L4-RATE-001). Subclasses choose
 * the database.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN })
abstract class Level4ConformanceTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	JobStore store;

	@Autowired
	OjsTemplate template;

	@Value("${ojs.jdbc.table-prefix}")
	String tablePrefix;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	private String enqueue(String queue, Object priority) {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "level4.job", "args", List.of(),
				"options", Map.of("queue", queue, "priority", priority)));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.body().path("job").path("id").stringValue();
	}

	private List<String> fetchIds(String queue, int count) {
		List<String> ids = new ArrayList<>();
		this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of(queue), "count", count))
			.body()
			.path("jobs")
			.forEach((job) -> ids.add(job.path("id").stringValue()));
		return ids;
	}

	/** L4-PRI-001/002, decisions 18 and 19: higher priority first, named priorities high 10, normal 0, low -10. */
	@Test
	void priorities() {
		String low = enqueue("prio", "low");
		String normal = enqueue("prio", "normal");
		String numeric = enqueue("prio", 50);
		String high = enqueue("prio", "high");
		assertThat(this.client.get("/ojs/v1/jobs/" + high).body().path("job").path("priority").intValue()).isEqualTo(10);
		assertThat(this.client.get("/ojs/v1/jobs/" + low).body().path("job").path("priority").intValue()).isEqualTo(-10);
		assertThat(fetchIds("prio", 10)).containsExactly(numeric, high, normal, low);
	}

	/** L4-BULK-001/002, decision 18: up to 1000 jobs at once, all or nothing. */
	@Test
	void batchEnqueue() {
		List<Map<String, Object>> jobs = new ArrayList<>(Collections.nCopies(1000,
				Map.of("type", "batch.job", "args", List.of(1), "options", Map.of("queue", "batch"))));
		OjsClient.Response created = this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", jobs));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		assertThat(created.body().path("count").intValue()).isEqualTo(1000);
		assertThat(created.body().path("jobs").get(999).path("state").stringValue()).isEqualTo("available");
		long before = storedJobs();
		List<Map<String, Object>> mixed = List.of(Map.of("type", "batch.ok", "args", List.of()),
				Map.of("type", "Batch.Bad", "args", List.of()));
		OjsClient.Response refused = this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", mixed));
		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.body().path("error").path("details").path("field").stringValue()).isEqualTo("jobs[1].type");
		OjsClient.Response badPolicy = this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", List.of(
				Map.of("type", "batch.ok", "args", List.of()),
				Map.of("type", "batch.ok", "args", List.of(), "options", Map.of("retry", Map.of("max_attempts", -1))))));
		assertThat(badPolicy.status()).isEqualTo(422);
		jobs.add(Map.of("type", "batch.job", "args", List.of()));
		assertThat(this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", jobs)).status()).isEqualTo(400);
		assertThat(this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", List.of())).status()).isEqualTo(400);
		assertThat(storedJobs()).isEqualTo(before);
	}

	/** L4-PAUSE-001/002, L4-STATS-001, L4-BULK-001 (counts), decision 20: queues wrapped as {"queue": {...}}. */
	@Test
	void pauseResumeAndStats() {
		OjsClient.Response paused = this.client.post("/ojs/v1/queues/never-used/pause", "{}");
		assertThat(paused.status()).isEqualTo(200);
		assertThat(paused.body().path("queue").path("name").stringValue()).isEqualTo("never-used");
		assertThat(paused.body().path("queue").path("paused").booleanValue()).isTrue();
		assertThat(paused.body().path("queue").path("status").stringValue()).isEqualTo("paused");
		assertThat(paused.body().path("queue").path("paused_at").isString()).isTrue();
		String id = enqueue("never-used", 0);
		assertThat(fetchIds("never-used", 5)).isEmpty();
		JsonNode stats = this.client.get("/ojs/v1/queues/never-used/stats").body();
		assertThat(stats.path("status").stringValue()).isEqualTo("paused");
		assertThat(stats.path("stats").path("available").longValue()).isEqualTo(1);
		assertThat(stats.path("stats").path("total").longValue()).isEqualTo(1);
		assertThat(stats.path("queue").path("name").stringValue()).isEqualTo("never-used");
		assertThat(stats.path("queue").path("available").longValue()).isEqualTo(1);
		assertThat(stats.path("queue").path("active").longValue()).isZero();
		assertThat(stats.path("queue").path("completed").longValue()).isZero();
		assertThat(this.client.get("/ojs/v1/queues").body().path("queues").findValuesAsString("name"))
			.contains("never-used");
		// a POST without content needs no media type
		OjsClient.Response resumed = this.client.send("POST", "/ojs/v1/queues/never-used/resume", null, Map.of());
		assertThat(resumed.status()).isEqualTo(200);
		assertThat(resumed.body().path("queue").path("paused").booleanValue()).isFalse();
		assertThat(resumed.body().path("queue").path("status").stringValue()).isEqualTo("active");
		assertThat(fetchIds("never-used", 5)).containsExactly(id);
		assertThat(this.client.get("/ojs/v1/queues/never-used/stats").body().path("stats").path("active").longValue())
			.isEqualTo(1);
		assertThat(this.client.get("/ojs/v1/queues/never-used/stats").body().path("queue").path("active").longValue())
			.isEqualTo(1);
		assertThat(this.client.post("/ojs/v1/queues/Bad%20Queue/pause", "{}").status()).isEqualTo(400);
	}

	private OjsClient.Response unique(Object args, Map<String, Object> unique) {
		return this.client.post("/ojs/v1/jobs", Map.of("type", "unique.job", "args", args, "options",
				Map.of("queue", "unique", "unique", unique)));
	}

	/** L4-UNIQ-001/002/003, ojs-unique-jobs.md §4, §5, spec README decision 21. */
	@Test
	void uniqueJobs() {
		Map<String, Object> reject = Map.of("keys", List.of("type", "args"));
		OjsClient.Response first = unique(List.of(Map.of("b", 1, "a", "é")), reject);
		assertThat(first.status()).as(first.text()).isEqualTo(201);
		String id = first.body().path("job").path("id").stringValue();
		long before = storedJobs();
		// same arguments, keys in another order and the string in decomposed form: a duplicate
		OjsClient.Response duplicate = unique(List.of(Map.of("a", "e\u0301", "b", 1)), reject);
		assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(409);
		assertThat(duplicate.errorCode()).isEqualTo("duplicate");
		assertThat(duplicate.body().path("error").path("details").path("existing_job_id").stringValue()).isEqualTo(id);
		assertThat(storedJobs()).isEqualTo(before);
		for (String ignore : List.of("ignore", "use_existing")) {
			OjsClient.Response existing = unique(List.of(Map.of("a", "é", "b", 1)),
					Map.of("keys", List.of("type", "args"), "on_conflict", ignore));
			assertThat(existing.status()).isEqualTo(200);
			assertThat(existing.body().path("deduplicated").booleanValue()).isTrue();
			assertThat(existing.body().path("job").path("id").stringValue()).isEqualTo(id);
		}
		assertThat(unique(List.of(Map.of("a", "other", "b", 1)), reject).status()).isEqualTo(201);
		OjsClient.Response replaced = unique(List.of(Map.of("a", "é", "b", 1)),
				Map.of("keys", List.of("type", "args"), "on_conflict", "replace"));
		assertThat(replaced.status()).isEqualTo(201);
		assertThat(replaced.body().path("job").path("id").stringValue()).isNotEqualTo(id);
		assertThat(this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue())
			.isEqualTo("cancelled");
		// args_keys picks keys of the first argument; meta needs meta_keys
		Map<String, Object> byUser = Map.of("keys", List.of("args"), "args_keys", List.of("user"));
		assertThat(unique(List.of(Map.of("user", 7, "n", 1)), byUser).status()).isEqualTo(201);
		assertThat(unique(List.of(Map.of("user", 7, "n", 2)), byUser).status()).isEqualTo(409);
	}

	private OjsClient.Response scoped(String queue, Object args, Map<String, Object> unique) {
		return this.client.post("/ojs/v1/jobs", Map.of("type", "unique.scoped", "args", args, "options",
				Map.of("queue", queue, "unique", unique)));
	}

	/** L4-UNIQ-005, spec README decision 35: a holder older than the period gives up its key. */
	@Test
	void uniquePeriod() throws InterruptedException {
		Map<String, Object> policy = Map.of("keys", List.of("type", "args"), "period", "PT1S");
		OjsClient.Response first = scoped("unique-period", List.of("B-001"), policy);
		assertThat(first.status()).as(first.text()).isEqualTo(201);
		assertThat(scoped("unique-period", List.of("B-001"), policy).status()).isEqualTo(409);
		Thread.sleep(1200);
		OjsClient.Response later = scoped("unique-period", List.of("B-001"), policy);
		assertThat(later.status()).as(later.text()).isEqualTo(201);
		assertThat(later.body().path("job").path("state").stringValue()).isEqualTo("available");
		// the new job holds the key now, for its own period
		OjsClient.Response duplicate = scoped("unique-period", List.of("B-001"), policy);
		assertThat(duplicate.status()).isEqualTo(409);
		assertThat(duplicate.body().path("error").path("details").path("existing_job_id").stringValue())
			.isEqualTo(later.body().path("job").path("id").stringValue());
	}

	/**
	 * L4-UNIQ-006, L4-UNIQ-007: {@code states} names the states in which a holder counts; an
	 * active holder outside them gives up its key, and a finished one holds none.
	 */
	@Test
	void uniqueStates() {
		Map<String, Object> availableOrActive = Map.of("keys", List.of("type", "args"), "states",
				List.of("available", "active"));
		assertThat(scoped("unique-states-1", List.of("U-200"), availableOrActive).status()).isEqualTo(201);
		assertThat(scoped("unique-states-1", List.of("U-200"), availableOrActive).status()).isEqualTo(409);
		assertThat(scoped("unique-states-1", List.of("U-300"), availableOrActive).status()).isEqualTo(201);
		Map<String, Object> availableOnly = Map.of("keys", List.of("type", "args"), "states", List.of("available"));
		OjsClient.Response first = scoped("unique-states-2", List.of("PAY-001"), availableOnly);
		assertThat(first.status()).isEqualTo(201);
		String id = first.body().path("job").path("id").stringValue();
		assertThat(scoped("unique-states-2", List.of("PAY-001"), availableOnly).status()).isEqualTo(409);
		assertThat(fetchIds("unique-states-2", 1)).containsExactly(id);
		OjsClient.Response whileActive = scoped("unique-states-2", List.of("PAY-001"), availableOnly);
		assertThat(whileActive.status()).as(whileActive.text()).isEqualTo(201);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id)).status()).isEqualTo(200);
		assertThat(scoped("unique-states-2", List.of("PAY-001"), availableOnly).status()).isEqualTo(409);
	}

	/** Issue 28 item 3: the Java API's unique period and states, on the same store. */
	@Test
	void uniquePeriodAndStatesOfTheJavaApi() throws InterruptedException {
		JobOptions period = JobOptions.builder().uniqueKey("java-period").uniquePeriod(Duration.ofSeconds(1)).build();
		String first = this.template.enqueue("unique.java", List.of(), period);
		assertThat(this.template.enqueue("unique.java", List.of(), period)).isEqualTo(first);
		Thread.sleep(1200);
		assertThat(this.template.enqueue("unique.java", List.of(), period)).isNotEqualTo(first);
		JobOptions scheduledOnly = JobOptions.builder().uniqueKey("java-states")
			.uniqueStates(Set.of(JobState.SCHEDULED)).build();
		String available = this.template.enqueue("unique.java", List.of(), scheduledOnly);
		assertThat(this.template.enqueue("unique.java", List.of(), scheduledOnly)).isNotEqualTo(available);
		org.assertj.core.api.Assertions.assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.template.enqueue("unique.java", List.of(), JobOptions.builder().uniqueKey("k")
				.uniqueStates(Set.of(JobState.COMPLETED)).build()))
			.withMessageContaining("unique.states");
	}

	/** ojs-unique-jobs.md §2.2: invalid policies are 400; what the store cannot do is 422. */
	@Test
	void invalidAndUnsupportedUniquePolicies() {
		long before = storedJobs();
		Map<Map<String, Object>, Integer> policies = Map.of(Map.of("keys", List.of("argz")), 400,
				Map.of("keys", List.of("meta")), 400, Map.of("keys", List.of("args"), "args_keys", List.of("missing")), 400,
				Map.of("on_conflict", "merge"), 400, Map.of("period", "soon"), 400, Map.of("states", List.of("done")), 400,
				Map.of("states", List.of("completed")), 422, Map.of("on_conflict", "replace_except_schedule"), 422);
		policies.forEach((policy, status) -> {
			OjsClient.Response refused = unique(List.of(Map.of("user", 1)), policy);
			assertThat(refused.status()).as(policy + " " + refused.text()).isEqualTo(status);
			assertThat(refused.body().path("error").path("details").path("field").stringValue())
				.startsWith("options.unique");
		});
		assertThat(storedJobs()).isEqualTo(before);
	}

	private OjsClient.Response limited(String queue, Object rateLimit) {
		return this.client.post("/ojs/v1/jobs", Map.of("type", "level4.job", "args", List.of(), "options",
				Map.of("queue", queue, "rate_limit", rateLimit)));
	}

	private JsonNode queueNamed(String name) {
		for (JsonNode queue : this.client.get("/ojs/v1/queues").body().path("queues")) {
			if (queue.path("name").stringValue().equals(name)) {
				return queue;
			}
		}
		throw new AssertionError("no queue " + name);
	}

	/**
	 * L4-RATE-001, ojs-queue-config.md §6.2 and §8.3, decision 22: a job's {@code rate_limit}
	 * configures its queue; a throttled fetch answers {@code 200} with no jobs, never {@code 429};
	 * the queue list shows the limit; malformed limits are {@code 400} naming the field, nothing stored.
	 */
	@Test
	void rateLimits() {
		OjsClient.Response first = limited("limited", Map.of("limit", 3, "period", "PT1H"));
		assertThat(first.status()).as(first.text()).isEqualTo(201);
		for (int i = 0; i < 4; i++) {
			assertThat(enqueue("limited", 0)).isNotNull();
		}
		assertThat(queueNamed("limited").path("rate_limit").path("limit").intValue()).isEqualTo(3);
		assertThat(queueNamed("limited").path("rate_limit").path("period").stringValue()).isEqualTo("PT1H");
		assertThat(fetchIds("limited", 10)).hasSize(3);
		OjsClient.Response throttled = this.client.post("/ojs/v1/workers/fetch",
				Map.of("queues", List.of("limited"), "count", 10));
		assertThat(throttled.status()).isEqualTo(200);
		assertThat(throttled.body().path("jobs")).isEmpty();

		assertThat(limited("fast", Map.of("max_per_second", 1000)).status()).isEqualTo(201);
		assertThat(queueNamed("fast").path("rate_limit").path("max_per_second").intValue()).isEqualTo(1000);
		assertThat(fetchIds("fast", 10)).hasSize(1);

		long before = storedJobs();
		List<Object> malformed = List.of(Map.of("max_per_second", 0), Map.of("limit", 5), Map.of("limit", 5,
				"period", "1h"), Map.of("limit", 5, "period", "P2D"), Map.of("limit", 1.5, "period", "PT1S"),
				Map.of("max_per_second", 5, "limit", 5, "period", "PT1S"), "fast", List.of(5));
		for (Object rateLimit : malformed) {
			OjsClient.Response refused = limited("other", rateLimit);
			assertThat(refused.status()).as(rateLimit + " " + refused.text()).isEqualTo(400);
			assertThat(refused.body().path("error").path("details").path("field").stringValue())
				.startsWith("options.rate_limit");
		}
		assertThat(storedJobs()).isEqualTo(before);
	}

	/** Decision 22: a request refused after its rate limit was read sets no limit (one transaction with the insert). */
	@Test
	void aRefusedRequestSetsNoRateLimit() {
		OjsClient.Response refused = this.client.post("/ojs/v1/jobs", Map.of("type", "level4.job", "args", List.of(),
				"options", Map.of("queue", "rolled-back", "rate_limit", Map.of("max_per_second", 5), "retry",
						Map.of("max_attempts", -1))));
		assertThat(refused.status()).as(refused.text()).isEqualTo(422);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix
				+ "queues WHERE name = 'rolled-back' AND rate_limit IS NOT NULL", Long.class)).isZero();
		OjsClient.Response batch = this.client.post("/ojs/v1/jobs/batch", Map.of("jobs", List.of(
				Map.of("type", "batch.ok", "args", List.of(), "options", Map.of("queue", "rolled-back", "rate_limit",
						Map.of("max_per_second", 5))),
				Map.of("type", "batch.ok", "args", List.of(), "options", Map.of("retry", Map.of("max_attempts", -1))))));
		assertThat(batch.status()).as(batch.text()).isEqualTo(422);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix
				+ "queues WHERE name = 'rolled-back' AND rate_limit IS NOT NULL", Long.class)).isZero();
	}

	/**
	 * One engine (L4-RATE-001, ojs-queue-config.md §8.3): the {@code @OjsJob} handler's worker
	 * and an HTTP worker fetching the same queue draw from one bucket, so together they start
	 * no more than the limit.
	 */
	@Test
	void inProcessAndHttpWorkersShareTheQueuesBucket() {
		String queue = HttpBindingTestApplication.JAVA_QUEUE;
		List<String> ids = new ArrayList<>();
		try {
			// set before the jobs are due: a claim already under way when a limit is set is not held
			// back, and a poller's look can stall for a while on a loaded machine
			this.store.setRateLimit(queue, new RateLimit(4, Duration.ofHours(1)));
			for (int i = 0; i < 6; i++) {
				OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type",
						HttpBindingTestApplication.JAVA_TYPE, "args", List.of("rate-" + i), "options",
						Map.of("queue", queue, "scheduled_at", "+PT1S")));
				assertThat(created.status()).as(created.text()).isEqualTo(201);
				ids.add(created.body().path("job").path("id").stringValue());
			}
			List<String> fetched = new ArrayList<>();
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				fetched.addAll(fetchIds(queue, 1));
				assertThat(started(ids)).isEqualTo(4);
			});
			// neither worker gets a fifth token while the hour lasts
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				fetched.addAll(fetchIds(queue, 1));
				assertThat(started(ids)).isEqualTo(4);
			});
			assertThat(ids).containsAll(fetched);
		}
		finally {
			this.jdbc.update("UPDATE " + this.tablePrefix + "queues SET rate_limit = NULL WHERE name = ?", queue);
		}
	}

	/** How many of these jobs were claimed by either worker: neither scheduled nor available. */
	private long started(List<String> ids) {
		return ids.stream()
			.map((id) -> this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue())
			.filter((state) -> !state.equals("scheduled") && !state.equals("available"))
			.count();
	}

	/**
	 * L4-STATS-001: queue statistics include throughput (jobs completed per time period), of this
	 * queue only, unrounded (one job an hour is not zero).
	 */
	@Test
	void queueStatsIncludeThroughput() {
		String done = enqueue("throughput", 0);
		String failing = enqueue("throughput", 0);
		enqueue("other-throughput", 0);
		assertThat(fetchIds("throughput", 2)).containsExactlyInAnyOrder(done, failing);
		assertThat(fetchIds("other-throughput", 1)).hasSize(1);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", done)).status()).isEqualTo(200);
		assertThat(this.client.post("/ojs/v1/workers/nack", Map.of("job_id", failing, "error",
				Map.of("type", "test.failure", "message", "fails once"))).status()).isEqualTo(200);
		JsonNode stats = this.client.get("/ojs/v1/queues/throughput/stats").body().path("stats");
		assertThat(stats.path("completed").longValue()).isEqualTo(1);
		assertThat(stats.path("completed_last_hour").longValue()).isEqualTo(1);
		assertThat(stats.path("failed_last_hour").longValue()).isEqualTo(1);
		assertThat(stats.path("throughput_per_second").doubleValue()).isCloseTo(1 / 3600.0, within(1e-9));
	}

	private long storedJobs() {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "jobs", Long.class);
	}

}

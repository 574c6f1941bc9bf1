package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.json.JobJson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Level 2 (scheduled) of ojs-conformance.md: delayed jobs with {@code scheduled_at}
 * (absolute, relative per spec README decision 16, and the {@code delay_until} alias), job
 * expiry with {@code expires_at} (L2-TTL, decision 17) and the cron endpoints on the
 * recurring jobs (decision 14); the manifest declares level 2. Subclasses choose
 * the database. What the official cases check as written (L2-DEL-002/003: not before
 * {@code scheduled_at}, soon after it) is left to {@code ConformanceSuiteTests}; these tests
 * cover what the cases do not: the decisions, refusals and the Java API.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.cron.interval=1s" })
abstract class Level2ConformanceTests {

	@LocalServerPort
	int port;

	@Autowired
	OjsEventStream eventStream;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	private JsonNode enqueue(String queue, Map<String, Object> options) {
		Map<String, Object> all = new java.util.HashMap<>(options);
		all.put("queue", queue);
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", "level2.job", "args", List.of(), "options", all));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.body().path("job");
	}

	private int fetchCount(String queue) {
		return this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of(queue), "count", 10))
			.body().path("jobs").size();
	}

	/** Spec README decision 16 (relative times; absolute ones echoed exactly as sent), openapi delay_until alias. */
	@Test
	void relativeTimesAndTheAlias() {
		Instant before = Instant.now();
		JsonNode relative = enqueue("relative", Map.of("scheduled_at", "+PT1H"));
		Instant due = Instant.parse(relative.path("scheduled_at").stringValue());
		assertThat(due).isBetween(before.plus(Duration.ofMinutes(59)), Instant.now().plus(Duration.ofMinutes(61)));
		JsonNode alias = enqueue("alias", Map.of("delay_until", "2099-01-01T00:00:00Z"));
		// absolute times are echoed exactly as sent, also on INFO
		assertThat(alias.path("scheduled_at").stringValue()).isEqualTo("2099-01-01T00:00:00Z");
		JsonNode offset = enqueue("alias", Map.of("scheduled_at", "2099-01-01T02:00:00.123456+02:00"));
		assertThat(offset.path("scheduled_at").stringValue()).isEqualTo("2099-01-01T02:00:00.123456+02:00");
		JsonNode info = this.client.get("/ojs/v1/jobs/" + offset.path("id").stringValue()).body().path("job");
		assertThat(info.path("scheduled_at").stringValue()).isEqualTo("2099-01-01T02:00:00.123456+02:00");
		assertThat(info.path("meta").has(JobJson.SCHEDULED_AT_AS_SENT)).isFalse();
		assertThat(fetchCount("relative") + fetchCount("alias")).isZero();
	}

	/** L2-TTL-001, decision 16: expires_at absolute (echoed exactly as sent, also on INFO) or relative. */
	@Test
	void expiresAtIsEchoedAsSentOrResolved() {
		JsonNode absolute = enqueue("ttl-echo", Map.of("expires_at", "2099-01-01T02:00:00.123456+02:00"));
		assertThat(absolute.path("expires_at").stringValue()).isEqualTo("2099-01-01T02:00:00.123456+02:00");
		JsonNode info = this.client.get("/ojs/v1/jobs/" + absolute.path("id").stringValue()).body().path("job");
		assertThat(info.path("expires_at").stringValue()).isEqualTo("2099-01-01T02:00:00.123456+02:00");
		assertThat(info.path("meta").has(JobJson.EXPIRES_AT_AS_SENT)).isFalse();
		Instant before = Instant.now();
		JsonNode relative = enqueue("ttl-echo", Map.of("expires_at", "+PT1H"));
		assertThat(Instant.parse(relative.path("expires_at").stringValue()))
			.isBetween(before.plus(Duration.ofMinutes(59)), Instant.now().plus(Duration.ofMinutes(61)));
		assertThat(enqueue("ttl-echo", Map.of()).has("expires_at")).isFalse();
	}

	/**
	 * L2-TTL-001/002, decision 17: a job whose expires_at passes before it runs is never
	 * fetched and becomes discarded with discarded_at and no completed_at, within a second.
	 */
	@Test
	void expiredJobIsDiscardedWithoutRunning() {
		JsonNode job = enqueue("ttl-expire", Map.of("expires_at", "+PT2S"));
		String id = job.path("id").stringValue();
		Instant expiresAt = Instant.parse(job.path("expires_at").stringValue());
		JsonNode never = enqueue("ttl-other", Map.of());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "discarded".equals(info(id).path("state").stringValue()));
		JsonNode discarded = info(id);
		Instant discardedAt = Instant.parse(discarded.path("discarded_at").stringValue());
		assertThat(discardedAt).isAfterOrEqualTo(expiresAt).isBefore(expiresAt.plusSeconds(2));
		assertThat(discarded.has("completed_at")).isFalse();
		assertThat(discarded.has("started_at")).isFalse();
		assertThat(discarded.path("attempt").intValue()).isZero();
		assertThat(discarded.path("errors")).isEmpty();
		assertThat(fetchCount("ttl-expire")).isZero();
		// a job without expiry is untouched
		assertThat(info(never.path("id").stringValue()).path("state").stringValue()).isEqualTo("available");
	}

	/** L2-TTL-001: expires_at bounds the start only; a job fetched before it runs to its ack. */
	@Test
	void fetchedJobIsNotExpiredMidRun() {
		JsonNode job = enqueue("ttl-running", Map.of("expires_at", "+PT1S"));
		String id = job.path("id").stringValue();
		Instant expiresAt = Instant.parse(job.path("expires_at").stringValue());
		assertThat(fetchCount("ttl-running")).isOne();
		// past the expiry and a full sweep interval (decision 17: at least once a second)
		await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(expiresAt.plusMillis(1_500)));
		assertThat(info(id).path("state").stringValue()).isEqualTo("active");
		OjsClient.Response ack = this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id));
		assertThat(ack.status()).as(ack.text()).isEqualTo(200);
		JsonNode completed = info(id);
		assertThat(completed.path("state").stringValue()).isEqualTo("completed");
		assertThat(completed.has("discarded_at")).isFalse();
	}

	/**
	 * ojs-events.md §3.2 {@code job.expired} (level 2 MUST): an expired job's events are
	 * {@code job.enqueued}, {@code job.expired} (with {@code expired_at} and {@code ttl_ms}),
	 * then {@code job.discarded}; no {@code job.failed}, as no attempt ran.
	 */
	@Test
	void expiredJobEvents() {
		int before = this.eventStream.subscriberCount();
		List<JsonNode> events = this.client.events("?queues=ttl-events", new java.util.ArrayList<>());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.eventStream.subscriberCount() == before + 1);
		JsonNode job = enqueue("ttl-events", Map.of("expires_at", "+PT1S"));
		String id = job.path("id").stringValue();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events.stream()
			.filter((event) -> event.path("subject").stringValue().equals(id))
			.map((event) -> event.path("type").stringValue())).containsExactly("job.enqueued", "job.expired",
					"job.discarded"));
		JsonNode expired = events.stream()
			.filter((event) -> event.path("type").stringValue().equals("job.expired"))
			.findFirst()
			.orElseThrow()
			.path("data");
		assertThat(expired.path("job_type").stringValue()).isEqualTo("level2.job");
		assertThat(expired.path("queue").stringValue()).isEqualTo("ttl-events");
		assertThat(expired.path("created_at").stringValue()).isEqualTo(job.path("created_at").stringValue());
		assertThat(Instant.parse(expired.path("expired_at").stringValue()))
			.isAfterOrEqualTo(Instant.parse(job.path("expires_at").stringValue()));
		assertThat(expired.path("ttl_ms").longValue()).isBetween(900L, 1_100L);
	}

	/** expires_at before scheduled_at: 400 invalid_request naming the field, nothing stored. */
	@Test
	void expiryBeforeTheScheduledTimeIsRefused() {
		OjsClient.Response refused = this.client.post("/ojs/v1/jobs", Map.of("type", "level2.job", "args", List.of(),
				"options", Map.of("queue", "ttl-refused", "scheduled_at", "+PT1H", "expires_at", "+PT1M")));
		assertThat(refused.status()).as(refused.text()).isEqualTo(400);
		assertThat(refused.errorCode()).isEqualTo("invalid_request");
		assertThat(refused.body().path("error").path("details").path("field").stringValue()).endsWith("expires_at");
		OjsClient.Response malformed = this.client.post("/ojs/v1/jobs", Map.of("type", "level2.job", "args", List.of(),
				"options", Map.of("expires_at", "tomorrow")));
		assertThat(malformed.status()).isEqualTo(400);
		assertThat(malformed.body().path("error").path("details").path("field").stringValue()).endsWith("expires_at");
	}

	/** Decision 10: the manifest declares the level the suite's rule gives, with job_ttl and cron. */
	@Test
	void manifestDeclaresItsLevelAndCapabilities() {
		JsonNode manifest = this.client.get("/ojs/manifest").body();
		assertThat(manifest.path("conformance_level").intValue()).isEqualTo(Manifest.CONFORMANCE_LEVEL);
		assertThat(manifest.path("capabilities").path("job_ttl").booleanValue()).isTrue();
		assertThat(manifest.path("capabilities").path("cron_jobs").booleanValue()).isTrue();
		assertThat(manifest.path("capabilities").path("delayed_jobs").booleanValue()).isTrue();
	}

	private JsonNode info(String id) {
		return this.client.get("/ojs/v1/jobs/" + id).body().path("job");
	}

	/** L2-CRON-001/002, decision 14: both shapes, upsert 201 then 200, list, delete 200 then 404. */
	@Test
	void cronEndpoints() {
		OjsClient.Response created = this.client.post("/ojs/v1/cron", Map.of("name", "daily-report", "cron", "0 9 * * *",
				"timezone", "America/New_York", "type", "report.generate", "args", List.of("daily"),
				"options", Map.of("queue", "reports", "retry", Map.of("max_attempts", 2))));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		JsonNode cron = created.body().path("cron");
		assertThat(cron.path("expression").stringValue()).isEqualTo("0 9 * * *");
		assertThat(cron.path("timezone").stringValue()).isEqualTo("America/New_York");
		assertThat(cron.path("job_template").path("options").path("queue").stringValue()).isEqualTo("reports");
		assertThat(cron.path("next_run_at").isString()).isTrue();
		OjsClient.Response updated = this.client.post("/ojs/v1/cron", Map.of("name", "daily-report", "expression",
				"30 9 * * *", "overlap_policy", "allow", "job_template", Map.of("type", "report.generate", "args", List.of())));
		assertThat(updated.status()).as(updated.text()).isEqualTo(200);
		// L2-CRON-003: overlapping runs are prevented by default
		assertThat(cron.path("overlap_policy").stringValue()).isEqualTo("skip");
		assertThat(updated.body().path("cron").path("cron").stringValue()).isEqualTo("30 9 * * *");
		assertThat(updated.body().path("cron").path("overlap_policy").stringValue()).isEqualTo("allow");
		OjsClient.Response list = this.client.get("/ojs/v1/cron");
		assertThat(list.body().path("crons").findValuesAsString("name")).contains("daily-report");
		OjsClient.Response deleted = this.client.delete("/ojs/v1/cron/daily-report");
		assertThat(deleted.status()).isEqualTo(200);
		assertThat(deleted.body().path("deleted").booleanValue()).isTrue();
		assertThat(deleted.body().path("cron").path("name").stringValue()).isEqualTo("daily-report");
		assertThat(this.client.delete("/ojs/v1/cron/daily-report").status()).isEqualTo(404);
	}

	/** Decision 14: an invalid expression, zone or name is 400 invalid_request naming the field. */
	@Test
	void invalidCronRegistrations() {
		Map<String, Map<String, Object>> invalid = Map.of("cron",
				Map.of("name", "bad-cron", "cron", "61 * * * *", "type", "a.b"), "timezone",
				Map.of("name", "bad-zone", "cron", "0 9 * * *", "timezone", "Mars/Olympus", "type", "a.b"), "name",
				Map.of("name", "Bad Name", "cron", "0 9 * * *", "type", "a.b"), "type",
				Map.of("name", "bad-type", "cron", "0 9 * * *", "type", "Bad"));
		invalid.forEach((field, body) -> {
			OjsClient.Response refused = this.client.post("/ojs/v1/cron", body);
			assertThat(refused.status()).as(refused.text()).isEqualTo(400);
			assertThat(refused.errorCode()).isEqualTo("invalid_request");
			assertThat(refused.body().path("error").path("details").path("field").stringValue()).contains(field);
		});
		assertThat(this.client.get("/ojs/v1/cron").body().path("crons").findValuesAsString("name"))
			.doesNotContain("bad-cron", "bad-zone", "bad-type");
	}

	/** L2-CRON-001: a registered recurring job enqueues its jobs, which an HTTP worker fetches. */
	@Test
	void cronJobsAreFetchedOverHttp() {
		assertThat(this.client.post("/ojs/v1/cron", Map.of("name", "every-second", "cron", "@every 1s", "type",
				"cron.tick", "args", List.of("tick"), "options", Map.of("queue", "cron-ticks"))).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(10)).until(() -> fetchCount("cron-ticks") > 0);
		assertThat(this.client.delete("/ojs/v1/cron/every-second").status()).isEqualTo(200);
	}

}

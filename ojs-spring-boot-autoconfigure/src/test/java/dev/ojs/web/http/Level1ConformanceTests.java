package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.spring.OjsWorkerNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Level 1 (reliable) of ojs-conformance.md over the HTTP binding: heartbeat and its
 * directives, visibility timeout as a counted attempt (spec README decision 1), dead-letter
 * endpoints (decision 23), cancellation of scheduled and retryable jobs. The node's
 * visibility timeout is 2 s, so its rescuer looks for expired reservations every 0.5 s.
 * Subclasses choose the database.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.visibility-timeout=2s" })
abstract class Level1ConformanceTests {

	@LocalServerPort
	int port;

	@Autowired
	WorkerDirectives directives;

	@Autowired
	OjsWorkerNodes nodes;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	String enqueue(String queue, Map<String, Object> options) {
		Map<String, Object> all = new java.util.HashMap<>(options);
		all.put("queue", queue);
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", "level1.job", "args", List.of(1), "options", all));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.body().path("job").path("id").stringValue();
	}

	JsonNode fetchOne(String queue, String workerId, long visibilityMillis) {
		OjsClient.Response fetched = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of(queue),
				"worker_id", workerId, "visibility_timeout_ms", visibilityMillis));
		assertThat(fetched.body().path("jobs")).as(fetched.text()).hasSize(1);
		return fetched.body().path("jobs").get(0);
	}

	JsonNode job(String id) {
		return this.client.get("/ojs/v1/jobs/" + id).body().path("job");
	}

	/** L1-HB-001, binding §10.4: a heartbeat extends the worker's own reservations only. */
	@Test
	void heartbeatExtendsReservations() {
		String id = enqueue("beat", Map.of());
		JsonNode fetched = fetchOne("beat", "w-beat", 1000);
		Instant first = Instant.parse(fetched.path("visibility_expires_at").stringValue());
		OjsClient.Response beat = this.client.post("/ojs/v1/workers/heartbeat",
				Map.of("worker_id", "w-beat", "active_jobs", List.of(id), "visibility_timeout_ms", 60_000));
		assertThat(beat.status()).isEqualTo(200);
		assertThat(beat.body().path("state").stringValue()).isEqualTo("running");
		assertThat(beat.body().path("jobs_extended").get(0).stringValue()).isEqualTo(id);
		assertThat(beat.body().path("server_time").isString()).isTrue();
		Instant extended = Instant.parse(job(id).path("visibility_expires_at").stringValue());
		assertThat(extended).isAfter(first.plusSeconds(50));
		OjsClient.Response other = this.client.post("/ojs/v1/workers/heartbeat",
				Map.of("worker_id", "w-other", "job_id", id));
		assertThat(other.body().path("jobs_extended")).isEmpty();
		assertThat(other.body().path("jobs_lost").get(0).stringValue()).isEqualTo(id);
		// still held after the first visibility timeout would have passed
		await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> true);
		assertThat(job(id).path("state").stringValue()).isEqualTo("active");
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "worker_id", "w-beat")).status())
			.isEqualTo(200);
		assertThat(this.client.post("/ojs/v1/workers/heartbeat", Map.of("active_jobs", List.of(id))).status())
			.isEqualTo(400);
	}

	/**
	 * L1-HB-002, L1-WRK-002, L1-WRK-003: the server tells a worker quiet or terminate in the
	 * heartbeat response, as set for that worker in the worker nodes service (which the Admin
	 * API's POST /ojs/v1/admin/workers/{id}/quiet and .../terminate call).
	 */
	@Test
	void heartbeatDirectives() {
		this.nodes.quiet("worker-quiet-1");
		assertThat(this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "worker-quiet-1"))
			.body().path("state").stringValue()).isEqualTo("quiet");
		this.nodes.terminate("worker-quiet-1");
		assertThat(this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "worker-quiet-1"))
			.body().path("state").stringValue()).isEqualTo("terminate");
		this.nodes.resume("worker-quiet-1");
		this.directives.quiet("w-quiet");
		OjsClient.Response quiet = this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "w-quiet"));
		assertThat(quiet.body().path("state").stringValue()).isEqualTo("quiet");
		assertThat(quiet.body().path("directive").stringValue()).isEqualTo("quiet");
		this.directives.terminate("w-quiet");
		assertThat(this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "w-quiet"))
			.body().path("state").stringValue()).isEqualTo("terminate");
		this.directives.resume("w-quiet");
		OjsClient.Response running = this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "w-quiet"));
		assertThat(running.body().path("state").stringValue()).isEqualTo("running");
		assertThat(running.body().path("directive").stringValue()).isEmpty();
	}

	/**
	 * L1-VT-001/002, spec README decision 1: an expired reservation is a failed attempt of
	 * type visibility_timeout, retried per the policy; the attempt counts once, at claim; the
	 * late ack of the first worker is refused.
	 */
	@Test
	void visibilityTimeoutIsACountedAttempt() {
		String id = enqueue("expire", Map.of("retry", Map.of("max_attempts", 3, "initial_interval", "PT0.01S")));
		assertThat(fetchOne("expire", "w-slow", 200).path("attempt").intValue()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(5)).until(() -> !job(id).path("errors").isEmpty());
		JsonNode error = job(id).path("errors").get(0);
		assertThat(error.path("type").stringValue()).isEqualTo("visibility_timeout");
		assertThat(error.path("attempt").intValue()).isEqualTo(1);
		List<JsonNode> again = new ArrayList<>();
		await().atMost(Duration.ofSeconds(5)).until(() -> {
			OjsClient.Response fetched = this.client.post("/ojs/v1/workers/fetch",
					Map.of("queues", List.of("expire"), "worker_id", "w-fast"));
			fetched.body().path("jobs").forEach(again::add);
			return !again.isEmpty();
		});
		assertThat(again.get(0).path("attempt").intValue()).isEqualTo(2);
		OjsClient.Response late = this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "worker_id", "w-slow"));
		assertThat(late.status()).isEqualTo(409);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "worker_id", "w-fast")).status())
			.isEqualTo(200);
	}

	String deadLetter(String queue, String code) {
		String id = enqueue(queue, Map.of());
		fetchOne(queue, "w-dlq", 60_000);
		OjsClient.Response nack = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "error", Map.of("type", "poison", "message", "bad", "code", code)));
		assertThat(nack.status()).isEqualTo(200);
		return id;
	}

	/** L1-DLQ-001/002, binding §12, spec README decisions 8 and 23. */
	@Test
	void deadLetterEndpoints() {
		String dead = deadLetter("dlq", "DEAD_LETTER");
		deadLetter("dlq", "DISCARD");
		OjsClient.Response list = this.client.get("/ojs/v1/dead-letter?queue=dlq");
		assertThat(list.status()).isEqualTo(200);
		assertThat(list.body().path("jobs")).hasSize(1);
		assertThat(list.body().path("jobs").get(0).path("id").stringValue()).isEqualTo(dead);
		assertThat(list.body().path("pagination").path("total").longValue()).isEqualTo(1);
		assertThat(list.body().path("pagination").path("has_more").booleanValue()).isFalse();
		assertThat(this.client.get("/ojs/v1/dead-letter/" + dead).body().path("job").path("errors")).hasSize(1);
		assertThat(this.client.get("/ojs/v1/dead-letter/stats").body().path("by_queue").path("dlq").longValue())
			.isEqualTo(1);
		OjsClient.Response retried = this.client.post("/ojs/v1/dead-letter/" + dead + "/retry", "{}");
		assertThat(retried.status()).as(retried.text()).isEqualTo(200);
		assertThat(retried.body().path("job").path("state").stringValue()).isEqualTo("available");
		assertThat(retried.body().path("job").path("attempt").intValue()).isZero();
		assertThat(retried.body().path("job").path("errors")).hasSize(1);
		assertThat(this.client.get("/ojs/v1/dead-letter/" + dead).status()).isEqualTo(404);
		String other = deadLetter("dlq-delete", "DEAD_LETTER");
		OjsClient.Response deleted = this.client.delete("/ojs/v1/dead-letter/" + other);
		assertThat(deleted.status()).isEqualTo(200);
		assertThat(deleted.body().path("deleted").booleanValue()).isTrue();
		assertThat(this.client.delete("/ojs/v1/dead-letter/" + other).status()).isEqualTo(404);
		assertThat(this.client.get("/ojs/v1/dead-letter?limit=0").status()).isEqualTo(400);
		assertThat(this.client.get("/ojs/v1/dead-letter?limit=abc").status()).isEqualTo(400);
	}

	/**
	 * L1-DLQ-002, spec README decision 13: dead letters page by keyset cursor: following
	 * {@code next_cursor} lists each exactly once, newest first, even when new dead letters
	 * arrive between pages; a cursor the server did not return is 400.
	 */
	@Test
	void deadLettersPageByKeysetCursor() {
		List<String> dead = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			dead.add(deadLetter("dlq-pages", "DEAD_LETTER"));
		}
		List<String> listed = new ArrayList<>();
		OjsClient.Response page = this.client.get("/ojs/v1/dead-letter?queue=dlq-pages&limit=2");
		page.body().path("jobs").forEach((job) -> listed.add(job.path("id").stringValue()));
		// a newer dead letter does not shift the next pages
		String newer = deadLetter("dlq-pages", "DEAD_LETTER");
		while (page.body().path("pagination").path("has_more").booleanValue()) {
			String cursor = page.body().path("next_cursor").stringValue();
			page = this.client.get("/ojs/v1/dead-letter?queue=dlq-pages&limit=2&cursor=" + cursor);
			assertThat(page.status()).as(page.text()).isEqualTo(200);
			page.body().path("jobs").forEach((job) -> listed.add(job.path("id").stringValue()));
		}
		assertThat(page.body().path("next_cursor").isNull()).isTrue();
		assertThat(listed).doesNotContain(newer).containsExactlyInAnyOrderElementsOf(dead).doesNotHaveDuplicates();
		List<Instant> times = listed.stream().map((id) -> Instant.parse(job(id).path("discarded_at").stringValue())).toList();
		for (int i = 1; i < times.size(); i++) {
			assertThat(times.get(i)).isBeforeOrEqualTo(times.get(i - 1));
		}
		assertThat(this.client.get("/ojs/v1/dead-letter?cursor=12").status()).isEqualTo(400);
		assertThat(this.client.get("/ojs/v1/dead-letter?cursor=not-a-cursor!").status()).isEqualTo(400);
	}

	/** L1-CAN-002: scheduled and retryable jobs can be cancelled. */
	@Test
	void cancelsScheduledAndRetryableJobs() {
		String scheduled = enqueue("cancel-scheduled", Map.of("scheduled_at", "+PT1H"));
		assertThat(job(scheduled).path("state").stringValue()).isEqualTo("scheduled");
		assertThat(this.client.delete("/ojs/v1/jobs/" + scheduled).body().path("job").path("previous_state").stringValue())
			.isEqualTo("scheduled");
		String retryable = enqueue("cancel-retryable", Map.of("retry", Map.of("initial_interval", "PT0.05S")));
		fetchOne("cancel-retryable", "w-c", 60_000);
		this.client.post("/ojs/v1/workers/nack", Map.of("job_id", retryable, "error", Map.of("message", "x")));
		OjsClient.Response cancelled = this.client.delete("/ojs/v1/jobs/" + retryable);
		assertThat(cancelled.status()).isEqualTo(200);
		assertThat(cancelled.body().path("job").path("previous_state").stringValue()).isEqualTo("retryable");
	}

}

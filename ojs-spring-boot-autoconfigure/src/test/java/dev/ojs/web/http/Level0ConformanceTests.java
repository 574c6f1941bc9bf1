package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

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
import dev.ojs.json.JobJson;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Level 0 (core) of ojs-conformance.md over the HTTP binding, requirement by requirement,
 * and the one engine (issue: a job enqueued over HTTP runs in an {@code @OjsJob} handler,
 * one enqueued with {@link OjsTemplate} is fetched over HTTP, and no job runs twice at
 * once). Subclasses choose the database.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN })
abstract class Level0ConformanceTests {

	static final Pattern UUID_V7 = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

	@LocalServerPort
	int port;

	@Autowired
	OjsTemplate template;

	@Autowired
	HttpBindingTestApplication.JavaJobs javaJobs;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	OjsEventStream eventStream;

	@Value("${ojs.jdbc.table-prefix}")
	String tablePrefix;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	long storedJobs() {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "jobs", Long.class);
	}

	String enqueue(String type, String queue) {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", type, "args", List.of("a"), "options", Map.of("queue", queue)));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.body().path("job").path("id").stringValue();
	}

	/** L0-OPS-001, L0-ENV-001/002, L0-Q-001, binding §9.1, §3.2, §4.3, §6.5. */
	@Test
	void pushAnswers201WithTheJobItsLocationAndTheBindingHeaders() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", "email.send-v2", "args", List.of("user@example.com", Map.of("locale", "en")),
						"meta", Map.of("trace_id", "t1")));
		assertThat(created.status()).isEqualTo(201);
		JsonNode job = created.body().path("job");
		String id = job.path("id").stringValue();
		assertThat(id).matches(UUID_V7);
		assertThat(created.header("Location")).isEqualTo("/ojs/v1/jobs/" + id);
		assertThat(created.header("OJS-Version")).isEqualTo("1.0");
		assertThat(created.header("Content-Type")).startsWith("application/openjobspec+json");
		assertThat(created.header("X-Request-Id")).startsWith("req_");
		assertThat(job.path("state").stringValue()).isEqualTo("available");
		assertThat(job.path("queue").stringValue()).isEqualTo("default");
		assertThat(job.path("attempt").intValue()).isZero();
		assertThat(job.path("args").toString()).isEqualTo("[\"user@example.com\",{\"locale\":\"en\"}]");
		assertThat(job.path("meta").path("trace_id").stringValue()).isEqualTo("t1");
		assertThat(job.path("created_at").stringValue()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
	}

	/** Binding §4.1: application/json is an alias; other media types are 400 and store nothing. */
	@Test
	void acceptsApplicationJsonAndRefusesOtherMediaTypes() {
		String body = "{\"type\":\"media.test\",\"args\":[]}";
		assertThat(this.client.send("POST", "/ojs/v1/jobs", body, Map.of("Content-Type", "application/json")).status())
			.isEqualTo(201);
		long before = storedJobs();
		for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded", "bogus")) {
			OjsClient.Response refused = this.client.send("POST", "/ojs/v1/jobs", body, Map.of("Content-Type", type));
			assertThat(refused.status()).as(type).isEqualTo(400);
			assertThat(refused.errorCode()).isEqualTo("invalid_request");
			assertThat(refused.header("OJS-Version")).isEqualTo("1.0");
		}
		assertThat(storedJobs()).isEqualTo(before);
	}

	/** Binding §3.2: an unsupported requested version is 422 unsupported; 1.0 is served. */
	@Test
	void refusesAnUnsupportedVersion() {
		OjsClient.Response refused = this.client.send("GET", "/ojs/v1/health", null, Map.of("OJS-Version", "2.0"));
		assertThat(refused.status()).isEqualTo(422);
		assertThat(refused.errorCode()).isEqualTo("unsupported");
		assertThat(this.client.send("GET", "/ojs/v1/health", null, Map.of("OJS-Version", "1.0")).status())
			.isEqualTo(200);
	}

	/** L0-ENV-003 with spec README decision 6, L0-ENV-004, L0-ENV-005: 400 naming the field, nothing stored. */
	@Test
	void validatesTypeQueueAndArgs() {
		assertThat(this.client.post("/ojs/v1/jobs", Map.of("type", "a_b.c-d.e1", "args", List.of())).status())
			.isEqualTo(201);
		long before = storedJobs();
		Map<String, Map<String, Object>> invalid = Map.of("type", Map.of("type", "Email.send", "args", List.of()),
				"type ", Map.of("type", "1email", "args", List.of()), "type  ", Map.of("type", "a..b", "args", List.of()),
				"type   ", Map.of("args", List.of()), "args", Map.of("type", "a.b", "args", Map.of("k", 1)),
				"args ", Map.of("type", "a.b"), "options.queue",
				Map.of("type", "a.b", "args", List.of(), "options", Map.of("queue", "Bad Queue")));
		invalid.forEach((field, body) -> {
			OjsClient.Response refused = this.client.post("/ojs/v1/jobs", body);
			assertThat(refused.status()).as(body.toString()).isEqualTo(400);
			assertThat(refused.errorCode()).isEqualTo("invalid_request");
			assertThat(refused.body().path("error").path("details").path("field").stringValue()).isEqualTo(field.trim());
			assertThat(refused.body().path("error").path("retryable").booleanValue()).isFalse();
			assertThat(refused.body().path("error").path("request_id").stringValue())
				.isEqualTo(refused.header("X-Request-Id"));
		});
		assertThat(storedJobs()).isEqualTo(before);
	}

	/** Spec README decisions 2 and 3: *_ms aliases become ISO-8601; an invalid policy is 422 validation_error. */
	@Test
	void retryPolicyAliasesAndInvalidPolicies() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "retry.alias", "args", List.of(),
				"options", Map.of("retry", Map.of("max_attempts", 4, "initial_interval_ms", 20))));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		assertThat(created.body().path("job").path("retry").path("initial_interval").stringValue()).isEqualTo("PT0.02S");
		assertThat(created.body().path("job").path("max_attempts").intValue()).isEqualTo(4);
		long before = storedJobs();
		for (Object retry : List.of(Map.of("max_attempts", -1), Map.of("backoff_coefficient", 0.5),
				Map.of("initial_interval", "soon"), Map.of("initial_interval_ms", "x"), "every minute")) {
			OjsClient.Response refused = this.client.post("/ojs/v1/jobs",
					Map.of("type", "retry.invalid", "args", List.of(), "options", Map.of("retry", retry)));
			assertThat(refused.status()).as(retry.toString()).isEqualTo(422);
			assertThat(refused.errorCode()).isEqualTo("validation_error");
			JsonNode details = refused.body().path("error").path("details");
			assertThat(details.path("validation_code").stringValue()).isEqualTo("validation.retry_policy_invalid");
			assertThat(details.path("field").stringValue()).startsWith("options.retry");
			assertThat(refused.body().path("error").path("message").stringValue()).contains("options.retry");
		}
		assertThat(storedJobs()).isEqualTo(before);
	}

	/** L1-INFO-001 / binding §9.3: INFO, and 404 not_found for unknown or malformed ids. */
	@Test
	void infoAndNotFound() {
		String id = enqueue("info.job", "info");
		OjsClient.Response info = this.client.get("/ojs/v1/jobs/" + id);
		assertThat(info.status()).isEqualTo(200);
		assertThat(info.body().path("job").path("id").stringValue()).isEqualTo(id);
		assertThat(info.body().path("job").path("queue").stringValue()).isEqualTo("info");
		for (String unknown : List.of("019414d4-0000-7000-8000-000000000000", "not-an-id")) {
			OjsClient.Response missing = this.client.get("/ojs/v1/jobs/" + unknown);
			assertThat(missing.status()).as(unknown).isEqualTo(404);
			assertThat(missing.errorCode()).isEqualTo("not_found");
		}
		// a percent-encoded path is refused before routing (OjsRequestGuard)
		OjsClient.Response encoded = this.client.get("/ojs/v1/jobs/%20");
		assertThat(encoded.status()).isEqualTo(400);
		assertThat(encoded.errorCode()).isEqualTo("invalid_request");
	}

	/**
	 * L0-OPS-015, L0-OPS-003, L0-OPS-019, L0-OPS-030, L1-RTR-011, L1-RTR-012: a body that is not
	 * JSON is {@code invalid_payload}; every error body carries {@code type}, {@code hint} and
	 * {@code docs_url}, in the media type the request accepts.
	 */
	@Test
	void errorBodies() {
		Map<String, String> binding = Map.of("Content-Type", OjsHttp.MEDIA_TYPE_VALUE, "Accept", OjsHttp.MEDIA_TYPE_VALUE);
		OjsClient.Response notJson = this.client.send("POST", "/ojs/v1/jobs", "{ invalid json }", binding);
		assertThat(notJson.status()).isEqualTo(400);
		assertThat(notJson.errorCode()).isEqualTo("invalid_payload");
		assertThat(notJson.body().path("error").path("retryable").booleanValue()).isFalse();
		assertThat(notJson.header("Content-Type")).startsWith(OjsHttp.MEDIA_TYPE_VALUE);
		OjsClient.Response noType = this.client.send("POST", "/ojs/v1/jobs", "{\"args\":[\"a\"]}", binding);
		assertThat(noType.status()).isEqualTo(400);
		assertThat(noType.header("Content-Type")).startsWith(OjsHttp.MEDIA_TYPE_VALUE);
		for (Map<String, String> accept : List.of(Map.of("Accept", OjsHttp.MEDIA_TYPE_VALUE), Map.<String, String>of())) {
			OjsClient.Response missing = this.client.send("GET", "/ojs/v1/jobs/019539a4-0000-7000-8000-ffffffffffff", null,
					accept);
			assertThat(missing.status()).isEqualTo(404);
			assertThat(missing.header("Content-Type")).startsWith(OjsHttp.MEDIA_TYPE_VALUE);
			JsonNode error = missing.body().path("error");
			assertThat(error.path("code").stringValue()).isEqualTo("not_found");
			assertThat(error.path("type").stringValue()).isEqualTo("not_found");
			assertThat(error.path("hint").stringValue()).isNotBlank();
			assertThat(error.path("docs_url").stringValue()).startsWith("https://");
		}
		OjsClient.Response json = this.client.send("GET", "/ojs/v1/jobs/019539a4-0000-7000-8000-ffffffffffff", null,
				Map.of("Accept", "application/json"));
		assertThat(json.header("Content-Type")).startsWith("application/json");
		for (Map<String, Object> retry : List.<Map<String, Object>>of(Map.of("max_attempts", -1),
				Map.of("backoff_coefficient", 0.5))) {
			OjsClient.Response invalid = this.client.post("/ojs/v1/jobs",
					Map.of("type", "retry.invalid", "args", List.of(), "options", Map.of("retry", retry)));
			assertThat(invalid.status()).isEqualTo(422);
			assertThat(invalid.body().path("error").path("type").stringValue()).isEqualTo("validation_error");
			assertThat(invalid.body().path("error").path("message").stringValue())
				.contains(retry.keySet().iterator().next());
		}
	}

	/**
	 * L0-ENV-010, L0-OPS-017 with spec README decision 21: a client-chosen UUID is the job's id;
	 * a second PUSH with it is {@code 409 duplicate} naming the job, and stores nothing; an id
	 * that is not a lowercase UUID is {@code 400 invalid_request}; a batch with a stored id is
	 * refused whole.
	 */
	@Test
	void clientChosenIds() {
		String id = "019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f";
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", "email.send", "args", List.of("user@example.com", "welcome"), "id", id));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		assertThat(created.body().path("job").path("id").stringValue()).isEqualTo(id);
		assertThat(created.body().path("job").path("state").stringValue()).isEqualTo("available");
		long before = storedJobs();
		OjsClient.Response duplicate = this.client.post("/ojs/v1/jobs",
				Map.of("type", "test.echo", "args", List.of(Map.of("message", "duplicate")), "id", id));
		assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(409);
		assertThat(duplicate.errorCode()).isEqualTo("duplicate");
		assertThat(duplicate.body().path("error").path("retryable").booleanValue()).isFalse();
		assertThat(duplicate.body().path("error").path("details").path("existing_job_id").stringValue()).isEqualTo(id);
		for (Object invalid : List.of("not-a-uuid", "019461A8-1A2B-7C3D-8E4F-5A6B7C8D9E0F", 42)) {
			OjsClient.Response refused = this.client.post("/ojs/v1/jobs",
					Map.of("type", "test.echo", "args", List.of(), "id", invalid));
			assertThat(refused.status()).as(refused.text()).isEqualTo(400);
			assertThat(refused.errorCode()).isEqualTo("invalid_request");
			assertThat(refused.body().path("error").path("details").path("field").stringValue()).isEqualTo("id");
		}
		String other = "019461a8-1a2b-7c3d-8e4f-000000000001";
		OjsClient.Response batch = this.client.post("/ojs/v1/jobs/batch", Map.of("jobs",
				List.of(Map.of("type", "test.echo", "args", List.of(), "id", other),
						Map.of("type", "test.echo", "args", List.of(), "id", id))));
		assertThat(batch.status()).as(batch.text()).isEqualTo(409);
		assertThat(storedJobs()).isEqualTo(before);
		OjsClient.Response batchCreated = this.client.post("/ojs/v1/jobs/batch",
				Map.of("jobs", List.of(Map.of("type", "test.echo", "args", List.of(), "id", other))));
		assertThat(batchCreated.status()).as(batchCreated.text()).isEqualTo(201);
		assertThat(batchCreated.body().path("jobs").get(0).path("id").stringValue()).isEqualTo(other);
	}

	/** Issue 28 item 3: the Java API's chosen id, idempotent where HTTP answers 409 duplicate. */
	@Test
	void clientChosenIdsOfTheJavaApi() {
		String id = "019461a8-1a2b-7c3d-8e4f-000000000002";
		JobOptions options = JobOptions.builder().id(id).build();
		assertThat(this.template.enqueue("java.chosen", List.of("a"), options)).isEqualTo(id);
		long before = storedJobs();
		assertThat(this.template.enqueue("java.chosen", List.of("b"), options)).isEqualTo(id);
		assertThat(storedJobs()).isEqualTo(before);
		assertThat(this.template.getJob(id)).isPresent();
		OjsClient.Response duplicate = this.client.post("/ojs/v1/jobs",
				Map.of("type", "java.chosen", "args", List.of(), "id", id));
		assertThat(duplicate.status()).isEqualTo(409);
		org.assertj.core.api.Assertions
			.assertThatExceptionOfType(dev.ojs.spring.OjsValidationException.class)
			.isThrownBy(() -> this.template.enqueue("java.chosen", List.of(),
					JobOptions.builder().id("not-a-uuid").build()))
			.withMessageContaining("'id' field must be a lowercase UUID");
	}

	/** L0-ENV-002: the full envelope, a unique period among its options, is accepted. */
	@Test
	void fullEnvelope() {
		String body = "{\"type\":\"report.generate\",\"args\":[42,\"quarterly\",{\"include_charts\":true}],\"meta\":{\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\","
				+ "\"user_id\":\"usr_12345\",\"tenant_id\":\"tenant_acme\",\"correlation_id\":\"corr_report_q4_2026\","
				+ "\"tags\":[\"quarterly\",\"finance\"]},\"options\":{\"queue\":\"reports\",\"priority\":10,\"timeout_ms\":300000,"
				+ "\"delay_until\":\"2020-01-01T00:00:00Z\",\"retry\":{\"max_attempts\":5,\"initial_interval\":\"PT1S\","
				+ "\"backoff_coefficient\":2.0,\"max_interval\":\"PT5M\",\"jitter\":true,\"non_retryable_errors\":[\"ValidationError\","
				+ "\"AuthenticationError\"]},\"unique\":{\"keys\":[\"type\",\"args\"],\"period\":\"PT1H\",\"on_conflict\":\"reject\"}}}";
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", body);
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		assertThat(created.body().path("job").path("queue").stringValue()).isEqualTo("reports");
		assertThat(created.body().path("job").path("priority").intValue()).isEqualTo(10);
	}

	/** Binding §9.4, spec README decision 9: cancel a live job; a terminal one is 409; a cancelled active job's ack is 409. */
	@Test
	void cancel() {
		String id = enqueue("cancel.job", "cancel");
		OjsClient.Response cancelled = this.client.delete("/ojs/v1/jobs/" + id);
		assertThat(cancelled.status()).isEqualTo(200);
		assertThat(cancelled.body().path("job").path("state").stringValue()).isEqualTo("cancelled");
		assertThat(cancelled.body().path("job").path("previous_state").stringValue()).isEqualTo("available");
		assertThat(cancelled.body().path("job").path("cancelled_at").isString()).isTrue();
		OjsClient.Response again = this.client.delete("/ojs/v1/jobs/" + id);
		assertThat(again.status()).isEqualTo(409);
		assertThat(again.errorCode()).isEqualTo("conflict");
		assertThat(again.body().path("error").path("details").path("current_state").stringValue()).isEqualTo("cancelled");
		String active = enqueue("cancel.active", "cancel-active");
		assertThat(fetch("cancel-active", "w-cancel", 1)).hasSize(1);
		assertThat(this.client.delete("/ojs/v1/jobs/" + active).status()).isEqualTo(200);
		OjsClient.Response ack = this.client.post("/ojs/v1/workers/ack", Map.of("job_id", active));
		assertThat(ack.status()).isEqualTo(409);
		assertThat(ack.errorCode()).isEqualTo("conflict");
		assertThat(this.client.delete("/ojs/v1/jobs/019414d4-0000-7000-8000-000000000000").status()).isEqualTo(404);
	}

	/**
	 * L0-LC-001, L0-LC-002, ojs-core §6.2, binding §9.5: a job pushed with {@code pending}
	 * is never fetched until activated; ACTIVATE makes it available (409 otherwise, 404
	 * for no job); a pending job can be cancelled.
	 */
	@Test
	void pendingJobsWaitForActivation() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", "staged.job", "args", List.of(), "options", Map.of("queue", "staged", "pending", true)));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		String id = created.body().path("job").path("id").stringValue();
		assertThat(created.body().path("job").path("state").stringValue()).isEqualTo("pending");
		assertThat(fetch("staged", "w-staged", 5)).isEmpty();
		OjsClient.Response activated = this.client.post("/ojs/v1/jobs/" + id + "/activate", "");
		assertThat(activated.status()).as(activated.text()).isEqualTo(200);
		assertThat(activated.body().path("job").path("state").stringValue()).isEqualTo("available");
		assertThat(activated.body().path("job").path("previous_state").stringValue()).isEqualTo("pending");
		assertThat(activated.body().path("job").path("activated_at").isString()).isTrue();
		OjsClient.Response again = this.client.post("/ojs/v1/jobs/" + id + "/activate", "");
		assertThat(again.status()).isEqualTo(409);
		assertThat(again.body().path("error").path("details").path("current_state").stringValue())
			.isEqualTo("available");
		assertThat(fetch("staged", "w-staged", 5)).extracting((job) -> job.path("id").stringValue()).containsExactly(id);
		String cancelled = this.client.post("/ojs/v1/jobs", Map.of("type", "staged.job", "args", List.of(), "pending", true))
			.body().path("job").path("id").stringValue();
		OjsClient.Response cancel = this.client.delete("/ojs/v1/jobs/" + cancelled);
		assertThat(cancel.status()).isEqualTo(200);
		assertThat(cancel.body().path("job").path("previous_state").stringValue()).isEqualTo("pending");
		assertThat(cancel.body().path("job").path("state").stringValue()).isEqualTo("cancelled");
		assertThat(this.client.post("/ojs/v1/jobs/019414d4-0000-7000-8000-000000000000/activate", "").status())
			.isEqualTo(404);
	}

	/** L0-LC-001 with OjsTemplate: a pending job enqueued in process is not run until activated. */
	@Test
	void pendingJobsOfTheTemplateWaitForActivationToo() {
		String id = this.template.enqueue("java.pending", List.of("p"),
				JobOptions.builder().queue("java-pending").pending(true).build());
		assertThat(fetch("java-pending", "w-jp", 1)).isEmpty();
		assertThat(this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue())
			.isEqualTo("pending");
		assertThat(this.client.post("/ojs/v1/jobs/" + id + "/activate", "").status()).isEqualTo(200);
		assertThat(fetch("java-pending", "w-jp", 1)).hasSize(1);
	}

	/**
	 * L0-ENV-006: unknown envelope fields are accepted and preserved: INFO and a worker's
	 * fetch show them again, not inside {@code meta}.
	 */
	@Test
	void unknownEnvelopeFieldsArePreserved() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "future.job", "args", List.of(),
				"queue", "future", "x_future", Map.of("nested", List.of(1, "two")), "workflow_id", "wf-1"));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		String id = created.body().path("job").path("id").stringValue();
		JsonNode info = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(info.path("x_future").toString()).isEqualTo("{\"nested\":[1,\"two\"]}");
		assertThat(info.path("workflow_id").stringValue()).isEqualTo("wf-1");
		assertThat(info.path("meta").has(JobJson.UNKNOWN_FIELDS)).isFalse();
		List<JsonNode> fetched = fetch("future", "w-future", 1);
		assertThat(fetched.get(0).path("workflow_id").stringValue()).isEqualTo("wf-1");
	}

	/**
	 * L0-EVT-001, L0-EVT-002, L1-EVT-001, L1-EVT-002, ojs-events.md §2.1, §3.1, §4.1, §5.1, spec
	 * README decision 11: {@code GET /ojs/v1/events} streams the lifecycle of jobs run by HTTP
	 * workers and by {@code @OjsJob} handlers, in the event envelope, in lifecycle order per
	 * job, filtered by queue.
	 */
	@Test
	void eventStreamOfTheJobLifecycle() {
		int before = this.eventStream.subscriberCount();
		List<String> contentType = new java.util.concurrent.CopyOnWriteArrayList<>();
		List<JsonNode> events = this.client.events("?queues=events," + HttpBindingTestApplication.JAVA_QUEUE, contentType);
		List<JsonNode> otherQueue = this.client.events("?queues=elsewhere&types=job.enqueued", new ArrayList<>());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.eventStream.subscriberCount() == before + 2);
		String acked = enqueue("events.ok", "events");
		assertThat(fetch("events", "w-events", 1)).hasSize(1);
		assertThat(this.client.post("/ojs/v1/workers/heartbeat", Map.of("worker_id", "w-events", "active_jobs",
				List.of(acked), "visibility_timeout_ms", 60_000)).status()).isEqualTo(200);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", acked)).status()).isEqualTo(200);
		String nacked = this.client.post("/ojs/v1/jobs", Map.of("type", "events.fail", "args", List.of(), "options",
				Map.of("queue", "events", "retry", Map.of("max_attempts", 2, "initial_interval", "PT0.01S"))))
			.body().path("job").path("id").stringValue();
		for (int attempt = 1; attempt <= 2; attempt++) {
			await().atMost(Duration.ofSeconds(10)).until(() -> !fetch("events", "w-events", 1).isEmpty());
			assertThat(this.client.post("/ojs/v1/workers/nack",
					Map.of("job_id", nacked, "error", Map.of("type", "boom", "message", "no"))).status()).isEqualTo(200);
		}
		String cancelled = this.client.post("/ojs/v1/jobs", Map.of("type", "events.later", "args", List.of(),
				"queue", "events", "pending", true)).body().path("job").path("id").stringValue();
		assertThat(this.client.delete("/ojs/v1/jobs/" + cancelled).status()).isEqualTo(200);
		String inProcess = this.template.enqueue(HttpBindingTestApplication.JAVA_TYPE, List.of("events"), JobOptions.none());
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(types(events, acked)).containsExactly("job.enqueued", "job.started", "job.heartbeat",
					"job.completed");
			assertThat(types(events, nacked)).containsExactly("job.enqueued", "job.started", "job.failed",
					"job.retrying", "job.started", "job.failed", "job.discarded");
			assertThat(types(events, cancelled)).containsExactly("job.enqueued", "job.cancelled");
			// an @OjsJob handler can start before OjsTemplate.enqueue returns (docs/http-binding.md)
			assertThat(types(events, inProcess)).containsExactlyInAnyOrder("job.enqueued", "job.started",
					"job.completed");
			assertThat(types(events, inProcess)).endsWith("job.completed");
		});
		assertThat(contentType.get(0)).startsWith("text/event-stream");
		JsonNode started = events.stream()
			.filter((event) -> event.path("subject").stringValue().equals(acked)
					&& event.path("type").stringValue().equals("job.started"))
			.findFirst().orElseThrow();
		assertThat(started.path("specversion").stringValue()).isEqualTo("1.0");
		assertThat(started.path("id").stringValue()).startsWith("evt_");
		assertThat(started.path("source").stringValue()).startsWith("ojs://");
		assertThat(started.path("time").stringValue()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
		JsonNode data = started.path("data");
		assertThat(data.path("job_id").stringValue()).isEqualTo(acked);
		assertThat(data.path("job_type").stringValue()).isEqualTo("events.ok");
		assertThat(data.path("queue").stringValue()).isEqualTo("events");
		assertThat(data.path("state").stringValue()).isEqualTo("active");
		assertThat(data.path("worker_id").stringValue()).isEqualTo("w-events");
		assertThat(data.path("attempt").intValue()).isEqualTo(1);
		JsonNode failed = events.stream()
			.filter((event) -> event.path("subject").stringValue().equals(nacked)
					&& event.path("type").stringValue().equals("job.failed"))
			.findFirst().orElseThrow().path("data");
		assertThat(failed.path("error").path("code").stringValue()).isEqualTo("boom");
		assertThat(failed.path("error").path("retryable").booleanValue()).isTrue();
		assertThat(otherQueue).isEmpty();
	}

	/**
	 * L0-EVT-001, L0-EVT-002, ojs-events.md §6.4: asked for JSON (or for nothing), {@code GET
	 * /ojs/v1/events} answers this node's recent events as a list, oldest first, filtered by
	 * {@code types} and {@code queues}, at most {@code limit}, with a cursor for {@code after}.
	 */
	@Test
	void recentEventsAsJson() {
		String enqueued = enqueue("test.echo", "conformance-events-test");
		OjsClient.Response recent = this.client.send("GET",
				"/ojs/v1/events?types=job.enqueued&queues=conformance-events-test&limit=10",
				null, Map.of("Accept", OjsHttp.MEDIA_TYPE_VALUE));
		assertThat(recent.status()).as(recent.text()).isEqualTo(200);
		assertThat(recent.headers().firstValue("Content-Type").orElseThrow()).startsWith(OjsHttp.MEDIA_TYPE_VALUE);
		JsonNode events = recent.body().path("events");
		assertThat(events.size()).isEqualTo(1);
		assertThat(events.get(0).path("type").stringValue()).isEqualTo("job.enqueued");
		assertThat(events.get(0).path("subject").stringValue()).isEqualTo(enqueued);
		assertThat(events.get(0).path("data").path("job_type").stringValue()).isEqualTo("test.echo");
		assertThat(events.get(0).path("data").path("queue").stringValue()).isEqualTo("conformance-events-test");
		String completed = enqueue("test.echo", "conformance-events-complete");
		assertThat(fetch("conformance-events-complete", "worker-event-1", 1)).hasSize(1);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", completed, "result", Map.of("status", "ok")))
			.status()).isEqualTo(200);
		OjsClient.Response done = this.client.send("GET",
				"/ojs/v1/events?types=job.completed&queues=conformance-events-complete&limit=10", null,
				Map.of("Accept", "application/json"));
		JsonNode event = done.body().path("events").get(0);
		assertThat(event.path("type").stringValue()).isEqualTo("job.completed");
		assertThat(event.path("data").path("job_type").stringValue()).isEqualTo("test.echo");
		assertThat(event.path("data").path("attempt").intValue()).isEqualTo(1);
		assertThat(event.path("data").has("duration_ms")).isTrue();
		// no Accept: a list too; limit keeps the last events, the cursor pages after them
		JsonNode all = this.client.get("/ojs/v1/events?queues=conformance-events-complete").body();
		assertThat(all.path("events").findValuesAsString("type")).containsExactly("job.enqueued", "job.started",
				"job.completed");
		JsonNode last = this.client.get("/ojs/v1/events?queues=conformance-events-complete&limit=1").body();
		assertThat(last.path("events").findValuesAsString("type")).containsExactly("job.completed");
		String first = all.path("events").get(0).path("id").stringValue();
		JsonNode after = this.client.get("/ojs/v1/events?queues=conformance-events-complete&limit=1&after=" + first)
			.body();
		assertThat(after.path("events").findValuesAsString("type")).containsExactly("job.started");
		assertThat(after.path("has_more").booleanValue()).isTrue();
		assertThat(this.client.get("/ojs/v1/events?limit=0").status()).isEqualTo(400);
	}

	private static List<String> types(List<JsonNode> events, String jobId) {
		return events.stream()
			.filter((event) -> event.path("subject").stringValue().equals(jobId))
			.map((event) -> event.path("type").stringValue())
			.toList();
	}

	/**
	 * openapi.yaml NackRequest.requeue: the job is available again at once, its attempt not
	 * counted and no error recorded; only the worker holding it may requeue it.
	 */
	@Test
	void nackWithRequeueReturnsTheJobWithoutCountingTheAttempt() {
		String id = enqueue("requeue.job", "requeue");
		assertThat(fetch("requeue", "w-rq", 1)).hasSize(1);
		assertThat(this.client.post("/ojs/v1/workers/nack", Map.of("job_id", id, "worker_id", "w-other", "requeue", true))
			.status()).isEqualTo(409);
		OjsClient.Response requeued = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "worker_id", "w-rq", "requeue", true));
		assertThat(requeued.status()).as(requeued.text()).isEqualTo(200);
		assertThat(requeued.body().path("state").stringValue()).isEqualTo("available");
		assertThat(requeued.body().path("attempt").intValue()).isZero();
		assertThat(requeued.body().path("job").path("errors")).isEmpty();
		List<JsonNode> again = fetch("requeue", "w-rq2", 1);
		assertThat(again).hasSize(1);
		assertThat(again.get(0).path("attempt").intValue()).isEqualTo(1);
	}

	List<JsonNode> fetch(String queue, String workerId, int count) {
		OjsClient.Response fetched = this.client.post("/ojs/v1/workers/fetch",
				Map.of("queues", List.of(queue), "worker_id", workerId, "count", count));
		assertThat(fetched.status()).as(fetched.text()).isEqualTo(200);
		List<JsonNode> jobs = new ArrayList<>();
		fetched.body().path("jobs").forEach(jobs::add);
		return jobs;
	}

	/** L0-OPS-002/003, L0-LC-002, binding §10.1, §10.2: fetch makes the job active, ack completes it; empty fetch is 200 []. */
	@Test
	void fetchAndAck() {
		assertThat(fetch("empty-queue", "w-empty", 5)).isEmpty();
		String id = enqueue("remote.job", "remote");
		List<JsonNode> jobs = fetch("remote", "w-1", 5);
		assertThat(jobs).hasSize(1);
		assertThat(jobs.get(0).path("id").stringValue()).isEqualTo(id);
		assertThat(jobs.get(0).path("state").stringValue()).isEqualTo("active");
		assertThat(jobs.get(0).path("attempt").intValue()).isEqualTo(1);
		assertThat(jobs.get(0).path("worker_id").stringValue()).isEqualTo("w-1");
		assertThat(fetch("remote", "w-2", 5)).isEmpty();
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "worker_id", "w-2")).status())
			.isEqualTo(409);
		OjsClient.Response ack = this.client.post("/ojs/v1/workers/ack",
				Map.of("job_id", id, "worker_id", "w-1", "result", Map.of("ok", true)));
		assertThat(ack.status()).isEqualTo(200);
		assertThat(ack.body().path("acknowledged").booleanValue()).isTrue();
		assertThat(ack.body().path("state").stringValue()).isEqualTo("completed");
		assertThat(this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue())
			.isEqualTo("completed");
		OjsClient.Response twice = this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id));
		assertThat(twice.status()).isEqualTo(409);
		assertThat(twice.body().path("error").path("details").path("current_state").stringValue())
			.isEqualTo("completed");
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", "019414d4-0000-7000-8000-000000000000"))
			.status()).isEqualTo(404);
	}

	/** Issue "one engine": a fetch restricted to types takes only those; without types, any. */
	@Test
	void fetchRestrictedToTypes() {
		String a = enqueue("typed.a", "typed");
		String b = enqueue("typed.b", "typed");
		OjsClient.Response fetched = this.client.post("/ojs/v1/workers/fetch",
				Map.of("queues", List.of("typed"), "types", List.of("typed.b"), "count", 10, "worker_id", "w-t"));
		assertThat(fetched.body().path("jobs")).hasSize(1);
		assertThat(fetched.body().path("jobs").get(0).path("id").stringValue()).isEqualTo(b);
		List<JsonNode> rest = fetch("typed", "w-t", 10);
		assertThat(rest).hasSize(1);
		assertThat(rest.get(0).path("id").stringValue()).isEqualTo(a);
	}

	/** L0-OPS-004, binding §10.3, spec README decisions 5 and 7: nack follows the job's retry policy and keeps the history. */
	@Test
	void nackRetriesThenExhausts() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "nack.job", "args", List.of(),
				"options", Map.of("queue", "nack", "retry",
						Map.of("max_attempts", 2, "initial_interval", "PT0.05S", "jitter", false, "on_exhaustion", "discard"))));
		String id = created.body().path("job").path("id").stringValue();
		assertThat(fetch("nack", "w-n", 1)).hasSize(1);
		OjsClient.Response first = this.client.post("/ojs/v1/workers/nack", Map.of("job_id", id, "error",
				Map.of("type", "smtp.refused", "message", "Connection refused", "details", Map.of("host", "mail"))));
		assertThat(first.status()).as(first.text()).isEqualTo(200);
		assertThat(first.body().path("state").stringValue()).isEqualTo("retryable");
		assertThat(first.body().path("attempt").intValue()).isEqualTo(1);
		assertThat(first.body().path("next_attempt_at").stringValue())
			.isEqualTo(first.body().path("next_retry_at").stringValue());
		assertThat(first.body().path("retry_delay_ms").longValue()).isBetween(0L, 50L);
		JsonNode error = first.body().path("job").path("errors").get(0);
		assertThat(error.path("type").stringValue()).isEqualTo("smtp.refused");
		assertThat(error.path("code").stringValue()).isEqualTo("RETRY");
		assertThat(error.path("attempt").intValue()).isEqualTo(1);
		assertThat(error.path("occurred_at").stringValue()).isEqualTo(error.path("timestamp").stringValue());
		assertThat(error.path("details").path("host").stringValue()).isEqualTo("mail");
		List<JsonNode> again = new ArrayList<>();
		await().atMost(Duration.ofSeconds(5)).until(() -> again.addAll(fetch("nack", "w-n", 1)));
		assertThat(again.get(0).path("attempt").intValue()).isEqualTo(2);
		OjsClient.Response second = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "error", Map.of("code", "handler_error", "message", "again")));
		assertThat(second.body().path("state").stringValue()).isEqualTo("discarded");
		assertThat(second.body().path("discarded_at").isString()).isTrue();
		assertThat(second.body().path("job").path("errors")).hasSize(2);
		assertThat(second.body().path("job").path("errors").get(1).path("type").stringValue()).isEqualTo("handler_error");
	}

	/** Spec README decision 7: retryable false is a non-retryable error; a handler code in error.code decides. */
	@Test
	void nackNotRetryableAndHandlerCodes() {
		String id = enqueue("nack.final", "nack-final");
		fetch("nack-final", "w-f", 1);
		OjsClient.Response refused = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "error", Map.of("type", "bad.input", "message", "no", "retryable", false)));
		assertThat(refused.body().path("state").stringValue()).isEqualTo("discarded");
		assertThat(refused.body().path("attempt").intValue()).isEqualTo(1);
		String dead = enqueue("nack.dead", "nack-dead");
		fetch("nack-dead", "w-f", 1);
		OjsClient.Response deadLettered = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", dead, "error", Map.of("code", "DEAD_LETTER", "message", "poison")));
		assertThat(deadLettered.body().path("state").stringValue()).isEqualTo("discarded");
		assertThat(deadLettered.body().path("dead_letter").booleanValue()).isTrue();
	}

	/** Issue "one engine": an @OjsJob handler runs a job pushed over HTTP; an HTTP worker fetches a job enqueued with OjsTemplate. */
	@Test
	void oneEngineBothWays() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs",
				Map.of("type", HttpBindingTestApplication.JAVA_TYPE, "args", List.of("from-http")));
		String id = created.body().path("job").path("id").stringValue();
		assertThat(created.body().path("job").path("queue").stringValue()).isEqualTo(HttpBindingTestApplication.JAVA_QUEUE);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.javaJobs.ran.contains(id));
		assertThat(this.javaJobs.args).contains("from-http");
		await().atMost(Duration.ofSeconds(5))
			.until(() -> "completed".equals(this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue()));
		String fromJava = this.template.enqueue("http.remote_job", List.of("from-java"),
				JobOptions.builder().queue("from-java").build());
		List<JsonNode> fetched = fetch("from-java", "w-j", 5);
		assertThat(fetched).hasSize(1);
		assertThat(fetched.get(0).path("id").stringValue()).isEqualTo(fromJava);
		assertThat(fetched.get(0).path("args").get(0).stringValue()).isEqualTo("from-java");
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", fromJava)).status()).isEqualTo(200);
	}

	/** Issue "one engine": in-process and HTTP workers on one queue never run one job twice, and run every job once. */
	@Test
	void mixedWorkersRunEveryJobExactlyOnce() throws Exception {
		int total = 300;
		List<String> ids = this.template.enqueueAll(HttpBindingTestApplication.JAVA_TYPE,
				Collections.nCopies(total, List.of("mixed")), JobOptions.none());
		Set<String> expected = new HashSet<>(ids);
		// copied by doneAll while the workers add to it
		List<String> httpRan = new CopyOnWriteArrayList<>();
		ExecutorService workers = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < 3; w++) {
				String workerId = "mixed-" + w;
				futures.add(workers.submit(() -> {
					long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
					while (System.nanoTime() < deadline && !doneAll(expected, httpRan)) {
						OjsClient.Response fetched = this.client.post("/ojs/v1/workers/fetch",
								Map.of("queues", List.of(HttpBindingTestApplication.JAVA_QUEUE), "types",
										List.of(HttpBindingTestApplication.JAVA_TYPE), "worker_id", workerId, "count", 10));
						for (JsonNode job : fetched.body().path("jobs")) {
							String id = job.path("id").stringValue();
							if (this.javaJobs.running.putIfAbsent(id, true) != null) {
								this.javaJobs.overlaps.incrementAndGet();
							}
							httpRan.add(id);
							this.javaJobs.running.remove(id);
							assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "worker_id", workerId))
								.status()).isEqualTo(200);
						}
					}
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			workers.shutdownNow();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> doneAll(expected, httpRan));
		List<String> inProcess = this.javaJobs.ran.stream().filter(expected::contains).toList();
		List<String> all = new ArrayList<>(inProcess);
		all.addAll(httpRan);
		assertThat(all).hasSize(total);
		assertThat(new HashSet<>(all)).isEqualTo(expected);
		assertThat(this.javaJobs.overlaps.get()).isZero();
		assertThat(httpRan).isNotEmpty();
		assertThat(inProcess).isNotEmpty();
	}

	private boolean doneAll(Set<String> expected, List<String> httpRan) {
		Set<String> done = new HashSet<>(httpRan);
		this.javaJobs.ran.stream().filter(expected::contains).forEach(done::add);
		return done.containsAll(expected);
	}

	/** Binding §8.1, §21, spec README decision 10. */
	@Test
	void healthAndManifest() {
		OjsClient.Response health = this.client.get("/ojs/v1/health");
		assertThat(health.status()).isEqualTo(200);
		assertThat(health.body().path("status").stringValue()).isEqualTo("ok");
		assertThat(health.body().path("backend").path("status").stringValue()).isEqualTo("connected");
		OjsClient.Response manifest = this.client.get("/ojs/manifest");
		assertThat(manifest.status()).isEqualTo(200);
		assertThat(manifest.header("OJS-Version")).isEqualTo("1.0");
		assertThat(manifest.body().path("specversion").stringValue()).isEqualTo("1.0");
		assertThat(manifest.body().path("ojs_version").stringValue()).isEqualTo("1.0");
		assertThat(manifest.body().path("conformance_level").intValue()).isEqualTo(Manifest.CONFORMANCE_LEVEL);
		assertThat(manifest.body().path("protocols").get(0).stringValue()).isEqualTo("http");
		assertThat(manifest.body().path("capabilities").path("workflows").booleanValue()).isTrue();
	}

	/** ojs.http.token: without it or with a wrong one, 401 unauthorized in the binding's body. */
	@Test
	void bearerTokenIsRequired() {
		OjsClient.Response missing = this.client.send("GET", "/ojs/v1/health", null, Map.of(), false);
		assertThat(missing.status()).isEqualTo(401);
		assertThat(missing.errorCode()).isEqualTo("unauthorized");
		assertThat(missing.header("OJS-Version")).isEqualTo("1.0");
		// a filter's refusal has the one error body (L0-OPS-030) in the accepted media type
		assertThat(missing.body().path("error").path("type").stringValue()).isEqualTo("unauthorized");
		assertThat(missing.body().path("error").path("hint").stringValue()).isNotBlank();
		assertThat(missing.body().path("error").path("docs_url").stringValue()).startsWith("https://");
		assertThat(missing.header("Content-Type")).startsWith(OjsHttp.MEDIA_TYPE_VALUE);
		assertThat(this.client.send("GET", "/ojs/v1/health", null, Map.of("Accept", "application/json"), false)
			.header("Content-Type")).startsWith("application/json");
		OjsClient.Response wrong = this.client.send("POST", "/ojs/v1/jobs", "{\"type\":\"a.b\",\"args\":[]}",
				Map.of("Authorization", "Bearer nope", "Content-Type", "application/json"));
		assertThat(wrong.status()).isEqualTo(401);
		assertThat(this.client.send("GET", "/ojs/manifest", null, Map.of(), false).status()).isEqualTo(401);
	}

	/** Binding §19.2: a client request id is echoed, in the header and the error body. */
	@Test
	void echoesTheClientRequestId() {
		OjsClient.Response response = this.client.send("GET", "/ojs/v1/jobs/none", null,
				Map.of("X-Request-Id", "req_client_1"));
		assertThat(response.header("X-Request-Id")).isEqualTo("req_client_1");
		assertThat(response.body().path("error").path("request_id").stringValue()).isEqualTo("req_client_1");
	}

	/**
	 * L0-LC-004, L0-OPS-009, L0-OPS-010, L0-OPS-018, spec README decision 28: the ack answers
	 * the job's id, state and completed_at; its result is stored apart from the job row and
	 * returned with the job; an ack without one stores nothing.
	 */
	@Test
	void ackAnswersTheJobAndStoresItsResult() {
		String id = enqueue("result.job", "result");
		assertThat(fetch("result", "w-r", 1)).hasSize(1);
		OjsClient.Response ack = this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "result",
				Map.of("processed", true, "records_count", 42, "details", Map.of("created", 10, "skipped", 2))));
		assertThat(ack.status()).as(ack.text()).isEqualTo(200);
		assertThat(ack.body().path("acknowledged").booleanValue()).isTrue();
		assertThat(ack.body().path("id").stringValue()).isEqualTo(id);
		assertThat(ack.body().path("state").stringValue()).isEqualTo("completed");
		assertThat(ack.body().path("completed_at").isString()).isTrue();
		JsonNode job = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(job.path("state").stringValue()).isEqualTo("completed");
		assertThat(job.path("completed_at").isString()).isTrue();
		assertThat(job.path("result").path("processed").booleanValue()).isTrue();
		assertThat(job.path("result").path("records_count").intValue()).isEqualTo(42);
		assertThat(job.path("result").path("details").path("skipped").intValue()).isEqualTo(2);
		assertThat(storedResults(id)).isEqualTo(1);
		String plain = enqueue("result.none", "result");
		fetch("result", "w-r", 1);
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", plain)).status()).isEqualTo(200);
		assertThat(this.client.get("/ojs/v1/jobs/" + plain).body().path("job").has("result")).isFalse();
		assertThat(storedResults(plain)).isZero();
	}

	/** L0-OPS-011, L0-LC-005, L0-OPS-013: a success leaves no error on the job's view; its history stays. */
	@Test
	void aSuccessLeavesNoErrorButKeepsTheHistory() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "recovering.job", "args", List.of(),
				"options", Map.of("queue", "recovering", "retry",
						Map.of("max_attempts", 3, "initial_interval", "PT0.05S", "jitter", false))));
		String id = created.body().path("job").path("id").stringValue();
		fetch("recovering", "w-c", 1);
		OjsClient.Response nack = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "error", Map.of("code", "handler_error", "message", "transient", "retryable", true)));
		assertThat(nack.body().path("id").stringValue()).isEqualTo(id);
		assertThat(nack.body().path("state").stringValue()).isEqualTo("retryable");
		assertThat(nack.body().path("max_attempts").intValue()).isEqualTo(3);
		assertThat(nack.body().path("next_attempt_at").isString()).isTrue();
		assertThat(nack.body().has("completed_at")).isFalse();
		JsonNode retryable = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(retryable.path("error").path("message").stringValue()).isEqualTo("transient");
		assertThat(retryable.has("completed_at")).isFalse();
		List<JsonNode> again = new ArrayList<>();
		await().atMost(Duration.ofSeconds(5)).until(() -> again.addAll(fetch("recovering", "w-c", 1)));
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id, "result", Map.of("recovered", true)))
			.status()).isEqualTo(200);
		JsonNode job = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(job.path("state").stringValue()).isEqualTo("completed");
		assertThat(job.has("error")).isFalse();
		assertThat(job.path("errors")).hasSize(1);
		assertThat(job.path("result").path("recovered").booleanValue()).isTrue();
		assertThat(job.path("completed_at").isString()).isTrue();
	}

	/**
	 * L0-LC-006, L0-LC-014, L0-OPS-014, L1-RTR-006: a nack that ends the job answers its id,
	 * state and completed_at; the discarded job keeps completed_at and its error.
	 */
	@Test
	void aNackThatEndsTheJobAnswersItsCompletedAt() {
		OjsClient.Response created = this.client.post("/ojs/v1/jobs", Map.of("type", "ending.job", "args", List.of(),
				"options", Map.of("queue", "ending", "retry", Map.of("max_attempts", 1))));
		String id = created.body().path("job").path("id").stringValue();
		fetch("ending", "w-e", 1);
		OjsClient.Response nack = this.client.post("/ojs/v1/workers/nack",
				Map.of("job_id", id, "error", Map.of("code", "handler_error", "message", "fatal")));
		assertThat(nack.body().path("id").stringValue()).isEqualTo(id);
		assertThat(nack.body().path("state").stringValue()).isEqualTo("discarded");
		assertThat(nack.body().path("attempt").intValue()).isEqualTo(1);
		assertThat(nack.body().path("max_attempts").intValue()).isEqualTo(1);
		assertThat(nack.body().path("completed_at").isString()).isTrue();
		assertThat(nack.body().path("discarded_at").isString()).isTrue();
		JsonNode job = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(job.path("state").stringValue()).isEqualTo("discarded");
		assertThat(job.path("completed_at").isString()).isTrue();
		assertThat(job.path("started_at").isString()).isTrue();
		assertThat(job.path("error").path("message").stringValue()).isEqualTo("fatal");
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", id)).status()).isEqualTo(409);
	}

	/** Spec README decision 28: a result past ojs.max-result-size (1 MB by default) is refused naming the limit. */
	@Test
	void aResultPastTheLimitIsRefused() {
		String id = enqueue("result.big", "result-big");
		fetch("result-big", "w-b", 1);
		OjsClient.Response ack = this.client.post("/ojs/v1/workers/ack",
				Map.of("job_id", id, "result", Map.of("text", "x".repeat(1024 * 1024))));
		assertThat(ack.status()).as(ack.text()).isEqualTo(400);
		assertThat(ack.text()).contains("result").contains("1048576");
		assertThat(this.client.get("/ojs/v1/jobs/" + id).body().path("job").path("state").stringValue())
			.isEqualTo("active");
	}

	/**
	 * Spec README decision 28, one engine: an {@code @OjsJob} method's return value is the
	 * job's result, read through {@link OjsTemplate#getJob} and over HTTP; one past the
	 * limit fails the attempt naming it.
	 */
	/**
	 * Issue 28 item 3, ojs-timeouts.md §3.1: the handler's {@code @OjsJob(timeout)} interrupts
	 * an attempt running past it, which fails with type {@code timeout}; a job's own timeout
	 * ({@code JobOptions}) wins over the handler's.
	 */
	@Test
	void executionTimeoutsOfTheJavaApi() {
		String slow = this.template.enqueue(HttpBindingTestApplication.SLOW_TYPE, List.of(60_000), JobOptions.none());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.getJob(slow).map((job) -> !job.errors().isEmpty()).orElse(false));
		JobInfo timedOut = this.template.getJob(slow).orElseThrow();
		assertThat(timedOut.errors().get(0).type()).isEqualTo("timeout");
		assertThat(timedOut.state()).isIn(JobState.RETRYABLE, JobState.AVAILABLE, JobState.ACTIVE);

		String longer = this.template.enqueue(HttpBindingTestApplication.SLOW_TYPE, List.of(800),
				JobOptions.builder().timeout(Duration.ofSeconds(20)).build());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.getJob(longer).map((job) -> job.state() == JobState.COMPLETED).orElse(false));
		assertThat(this.template.getJob(longer).orElseThrow().errors()).isEmpty();
	}

	@Test
	void aHandlerMethodsReturnValueIsTheJobsResult() {
		String id = this.template.enqueue(HttpBindingTestApplication.RESULT_TYPE, List.of("hello"), JobOptions.none());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.getJob(id).map((job) -> job.state() == JobState.COMPLETED).orElse(false));
		JobInfo info = this.template.getJob(id).orElseThrow();
		assertThat(info.resultJson()).contains("\"echo\":\"hello\"");
		assertThat(this.template.getResult(id, Map.class)).hasValueSatisfying(
				(result) -> assertThat(result).containsEntry("echo", "hello").containsEntry("length", 5));
		JsonNode json = this.client.get("/ojs/v1/jobs/" + id).body().path("job");
		assertThat(json.path("result").path("echo").stringValue()).isEqualTo("hello");
		assertThat(this.template.getJob(enqueueJava()).map(JobInfo::resultJson)).isEmpty();
		String big = this.template.enqueue(HttpBindingTestApplication.RESULT_TYPE, List.of("big"), JobOptions.none());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.getJob(big).map((job) -> !job.errors().isEmpty()).orElse(false));
		assertThat(this.template.getJob(big).orElseThrow().errors().get(0).message()).contains("1048576");
		assertThat(storedResults(big)).isZero();
	}

	private String enqueueJava() {
		String id = this.template.enqueue(HttpBindingTestApplication.JAVA_TYPE, List.of("plain"), JobOptions.none());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.template.getJob(id).map((job) -> job.state() == JobState.COMPLETED).orElse(false));
		return id;
	}

	long storedResults(String id) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "job_results WHERE CAST(job_id AS CHAR(36)) = ?",
				Long.class, id);
	}

}

package dev.ojs.web.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.spring.JobOptionRules;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsValidationException;
import dev.ojs.spring.RecurringJob;
import dev.ojs.web.QueueNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits of what the binding and the Admin API take: request bodies bounded while read
 * ({@code 413}), args and meta per job, text the database cannot store, queue names by one
 * rule, each refused alike by the Java API; and the binding's error body, without framework or Java type names, for every answer
 * under {@code /ojs}, unknown paths and methods included. Subclasses choose the database.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.http.max-request-size=64KB", "ojs.max-args-size=1KB", "ojs.max-meta-size=512B",
				"ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false", "ojs.dashboard.max-request-size=16KB" })
@ExtendWith(OutputCaptureExtension.class)
abstract class AbstractHttpLimitsTests {

	private static final String ADMIN = "/ojs/v1/admin";

	/** A qualified Java class name, as a framework message would carry it. */
	private static final Pattern CLASS_NAME = Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*");

	@LocalServerPort
	int port;

	@Autowired
	OjsTemplate template;

	@Autowired
	OjsQueues queues;

	@Autowired
	OjsRecurringJobs recurringJobs;

	private OjsClient client() {
		return new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	private static String job(String args, String meta) {
		return "{\"type\":\"limits.job\",\"args\":" + args + ",\"meta\":" + meta + ",\"options\":{\"queue\":\"limits\"}}";
	}

	private static String text(int length) {
		return "\"" + "x".repeat(length) + "\"";
	}

	private static void assertRefused(OjsClient.Response response, int status, String field) {
		assertThat(response.status()).as(response.text()).isEqualTo(status);
		JsonNode error = response.body().path("error");
		assertThat(error.path("code").stringValue()).as(response.text()).isEqualTo("invalid_request");
		assertThat(error.path("retryable").booleanValue()).isFalse();
		assertThat(error.path("details").path("field").stringValue()).as(response.text()).isEqualTo(field);
		assertThat(error.path("request_id").isString()).isTrue();
	}

	// ---- request size

	@Test
	void aBodyPastItsContentLengthLimitIsRefusedBeforeItIsSent() throws Exception {
		Upload upload = upload("/ojs/v1/jobs", false, 1L << 30);
		assertThat(upload.status()).isEqualTo(413);
		assertThat(upload.sentWhenAnswered()).isLessThan(1L << 30);
		JsonNode error = OjsClient.JSON.readTree(upload.body()).path("error");
		assertThat(error.path("code").stringValue()).isEqualTo("invalid_request");
		assertThat(error.path("retryable").booleanValue()).isFalse();
		assertThat(error.path("details").path("max_bytes").longValue()).isEqualTo(64 * 1024);
		assertThat(upload.headers()).containsIgnoringCase("content-type: application/openjobspec+json");
		OjsClient.Response admin = client().post(ADMIN + "/jobs/bulk/cancel", "{\"filter\":" + text(20_000) + "}");
		assertThat(admin.status()).isEqualTo(413);
		assertThat(admin.body().path("error").path("details").path("max_bytes").longValue()).isEqualTo(16 * 1024);
	}

	@Test
	void aChunkedBodyIsRefusedOnceItPassesTheLimitWhileTheClientStillSends() throws Exception {
		long total = 128L << 20;
		for (String path : List.of("/ojs/v1/jobs", "/ojs/v1/jobs/batch", "/ojs/v1/workers/ack",
				ADMIN + "/jobs/bulk/cancel")) {
			Upload upload = upload(path, true, total);
			assertThat(upload.status()).as(path + ": " + upload.body()).isEqualTo(413);
			assertThat(upload.sentWhenAnswered()).as(path).isLessThan(total / 2);
			JsonNode error = OjsClient.JSON.readTree(upload.body()).path("error");
			assertThat(error.path("code").stringValue()).as(path).isEqualTo("invalid_request");
			assertThat(error.path("retryable").booleanValue()).isFalse();
			assertThat(error.path("details").path("max_bytes").longValue()).as(path).isPositive();
		}
	}

	@Test
	void aBodyWithinTheLimitIsTaken() {
		String batch = "{\"jobs\":[" + String.join(",", java.util.Collections.nCopies(100, job("[1]", "{}"))) + "]}";
		assertThat(client().post("/ojs/v1/jobs/batch", batch).status()).isEqualTo(201);
	}

	// ---- args and meta

	@Test
	void argsAndMetaPastTheirLimitsAreRefusedNamingTheField() {
		OjsClient client = client();
		OjsClient.Response args = client.post("/ojs/v1/jobs", job("[" + text(1100) + "]", "{}"));
		assertRefused(args, 400, "args");
		assertThat(args.body().path("error").path("details").path("max_bytes").longValue()).isEqualTo(1024);
		OjsClient.Response meta = client.post("/ojs/v1/jobs", job("[]", "{\"note\":" + text(600) + "}"));
		assertRefused(meta, 400, "meta");
		assertThat(meta.body().path("error").path("details").path("max_bytes").longValue()).isEqualTo(512);
		assertRefused(client.post("/ojs/v1/jobs/batch",
				"{\"jobs\":[" + job("[1]", "{}") + "," + job("[" + text(1100) + "]", "{}") + "]}"), 400, "jobs[1].args");
		assertRefused(client.post("/ojs/v1/jobs/batch",
				"{\"jobs\":[" + job("[1]", "{\"a\":" + text(600) + "}") + "]}"), 400, "jobs[0].meta");
		assertRefused(client.post("/ojs/v1/cron", "{\"name\":\"big-args\",\"cron\":\"0 9 * * *\",\"type\":\"limits.job\","
				+ "\"args\":[" + text(1100) + "]}"), 400, "args");
		assertThat(client.post("/ojs/v1/jobs", job("[" + text(900) + "]", "{\"note\":" + text(400) + "}")).status())
			.isEqualTo(201);
	}

	// ---- characters the database cannot store

	@Test
	void textTheDatabaseCannotStoreIsRefusedNamingTheField() {
		OjsClient client = client();
		assertRefused(client.post("/ojs/v1/jobs", job("[\"a\\u0000b\"]", "{}")), 400, "args[0]");
		assertRefused(client.post("/ojs/v1/jobs", job("[{\"k\":[\"\\ud800\"]}]", "{}")), 400, "args[0].k[0]");
		assertRefused(client.post("/ojs/v1/jobs", job("[\"\\udc00x\"]", "{}")), 400, "args[0]");
		assertRefused(client.post("/ojs/v1/jobs", job("[]", "{\"note\":\"\\u0000\"}")), 400, "meta.note");
		assertRefused(client.post("/ojs/v1/jobs", job("[]", "{\"n\\u0000\":1}")), 400, "meta.n\uFFFD");
		assertRefused(client.post("/ojs/v1/jobs/batch", "{\"jobs\":[" + job("[1]", "{}") + "," + job("[\"\\u0000\"]", "{}")
				+ "]}"), 400, "jobs[1].args[0]");
		assertRefused(client.post("/ojs/v1/workers/nack", "{\"job_id\":\"0190f5f0-0000-7000-8000-00000000ffff\","
				+ "\"error\":{\"message\":\"boom\\u0000\"}}"), 400, "error.message");
		assertRefused(client.post("/ojs/v1/cron", "{\"name\":\"nul\",\"cron\":\"0 9 * * *\",\"type\":\"limits.job\","
				+ "\"args\":[\"\\u0000\"]}"), 400, "args[0]");
		assertRefused(client.get("/ojs/v1/dead-letter?queue=a%00b"), 400, "queue");
		assertRefused(client.get(ADMIN + "/jobs?type=a%00"), 400, "type");
		assertRefused(client.get(ADMIN + "/jobs?error_type=x%00"), 400, "error_type");
		assertRefused(client.get(ADMIN + "/jobs?error_type=%ED%A0%80x"), 400, "query");
		assertRefused(client.get("/ojs/v1/dead-letter?type=%C0"), 400, "query");
		assertRefused(client.post(ADMIN + "/jobs/bulk/cancel", "{\"filter\":{\"state\":\"available\",\"type\":\"a\\u0000\"}}"),
				400, "filter.type");
		assertRefused(client.send("PUT", ADMIN + "/queues/limits/config", "{\"rate_limit\":{\"x\\u0000\":1}}",
				Map.of("Content-Type", "application/json")), 400, "rate_limit.x\uFFFD");
	}

	// ---- page sizes

	/** Decision 13: the dead letters' page rules, the service's, refused naming the field. */
	@Test
	void deadLetterPagesAreBoundedNamingTheField() {
		OjsClient client = client();
		assertRefused(client.get("/ojs/v1/dead-letter?limit=0"), 400, "limit");
		assertRefused(client.get("/ojs/v1/dead-letter?limit=1001"), 400, "limit");
		assertRefused(client.get("/ojs/v1/dead-letter?offset=-1"), 400, "offset");
		assertRefused(client.get("/ojs/v1/dead-letter?cursor=zzz"), 400, "cursor");
		assertThat(client.get("/ojs/v1/dead-letter?limit=1000").status()).isEqualTo(200);
	}

	// ---- queue names

	@Test
	void theAdminApiValidatesQueueNamesAsTheBindingDoes() {
		OjsClient client = client();
		OjsClient.Response binding = client.get("/ojs/v1/queues/Bad_Queue/stats");
		assertRefused(binding, 400, "name");
		String message = binding.body().path("error").path("message").stringValue();
		assertThat(message).isEqualTo(QueueNames.MESSAGE);
		for (OjsClient.Response admin : List.of(client.get(ADMIN + "/queues/Bad_Queue"),
				client.post(ADMIN + "/queues/Bad_Queue/pause", "{}"),
				client.send("PUT", ADMIN + "/queues/Bad_Queue/config", "{\"rate_limit\":null}",
						Map.of("Content-Type", "application/json")))) {
			assertRefused(admin, 400, "name");
			assertThat(admin.body().path("error").path("message").stringValue()).isEqualTo(message);
		}
		assertRefused(client.get(ADMIN + "/jobs?queue=UPPER"), 400, "queue");
		assertRefused(client.get(ADMIN + "/dead-letter?queue=" + "q".repeat(256)), 400, "queue");
		assertRefused(client.post(ADMIN + "/jobs/bulk/cancel", "{\"filter\":{\"state\":\"available\",\"queue\":\"-x\"}}"),
				400, "queue");
		assertThat(client.get(ADMIN + "/jobs?queue=good.queue-1").status()).isEqualTo(200);
		// a queue a Java producer named with an underscore is managed over HTTP too
		assertThat(client.get(ADMIN + "/jobs?queue=billing_eu").status()).isEqualTo(200);
		assertThat(client.post(ADMIN + "/queues/billing_eu/pause", "{}").status()).isEqualTo(200);
		assertThat(client.get("/ojs/v1/queues/billing_eu/stats").status()).isEqualTo(200);
		assertRefused(client.get(ADMIN + "/jobs?queue=_billing"), 400, "queue");
	}

	/**
	 * Issue 27: a name or size the services refuse gets the same message from the Java API
	 * ({@link OjsValidationException}), the binding and the Admin API ({@code 400
	 * invalid_request}, naming the field as each request spells it).
	 */
	@Test
	void everyEdgeRefusesAQueueNameOrAnOversizedJobWithTheSameMessage() {
		OjsClient client = client();
		JobOptions badQueue = JobOptions.builder().queue("Bad_Queue").build();
		String queueMessage = javaRefusal(() -> this.template.enqueue("limits.job", List.of(), badQueue), "queue");
		assertThat(queueMessage).isEqualTo(QueueNames.MESSAGE);
		assertThat(javaRefusal(() -> this.queues.pause("Bad_Queue"), "queue")).isEqualTo(queueMessage);
		assertThat(javaRefusal(() -> this.queues.setRateLimit("Bad_Queue", null), "queue")).isEqualTo(queueMessage);
		assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":{\"queue\":"
				+ "\"Bad_Queue\"}}"), "options.queue", queueMessage);
		assertSameRefusal(client.post("/ojs/v1/queues/Bad_Queue/pause", "{}"), "name", queueMessage);
		assertSameRefusal(client.post(ADMIN + "/queues/Bad_Queue/pause", "{}"), "name", queueMessage);
		assertSameRefusal(client.send("PUT", ADMIN + "/queues/Bad_Queue/config", "{\"rate_limit\":null}",
				Map.of("Content-Type", "application/json")), "name", queueMessage);
		String typeMessage = javaRefusal(() -> this.template.enqueue("Limits.Job"), "type");
		assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"Limits.Job\",\"args\":[]}"), "type", typeMessage);
		String argsMessage = javaRefusal(
				() -> this.template.enqueue("limits.job", List.of("x".repeat(1100)), JobOptions.none()), "args");
		assertThat(argsMessage).isEqualTo("The 'args' field is larger than the limit of 1024 bytes of JSON.");
		assertSameRefusal(client.post("/ojs/v1/jobs", job("[" + text(1100) + "]", "{}")), "args", argsMessage);
		String batchMessage = javaRefusal(() -> this.template.enqueueBatch(
				List.of(new OjsTemplate.Enqueue("limits.job", List.of(1), JobOptions.none()),
						new OjsTemplate.Enqueue("limits.job", List.of("x".repeat(1100)), JobOptions.none()))),
				"jobs[1].args");
		assertSameRefusal(client.post("/ojs/v1/jobs/batch",
				"{\"jobs\":[" + job("[1]", "{}") + "," + job("[" + text(1100) + "]", "{}") + "]}"), "jobs[1].args",
				batchMessage);
		String metaMessage = javaRefusal(() -> this.template.enqueue("limits.job",
				JobOptions.builder().meta("note", "x".repeat(600)).build()), "meta");
		assertSameRefusal(client.post("/ojs/v1/jobs", job("[]", "{\"note\":" + text(600) + "}")), "meta", metaMessage);
	}

	/**
	 * Issue 27: a job option's rule is the service's ({@code JobOptionRules}); the Java API,
	 * the binding's enqueue, batch and cron registration refuse a bad priority, bad tags, a
	 * pending job with a run time and an expiry before the run time with the same message.
	 * The Admin API takes no job options.
	 */
	@Test
	void everyEdgeRefusesABadJobOptionWithTheSameMessage() {
		OjsClient client = client();
		String priority = javaRefusal(
				() -> this.template.enqueue("limits.job", JobOptions.builder().priority(101).build()), "priority");
		assertThat(priority).isEqualTo(JobOptionRules.PRIORITY_MESSAGE);
		assertThat(javaRefusal(() -> this.recurringJobs.register(RecurringJob.of("bad-priority", "0 9 * * *",
				"limits.job").priority(-101)), "priority")).isEqualTo(priority);
		for (String bad : List.of("101", "-101", "1.5", "true", "99999999999")) {
			assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":"
					+ "{\"priority\":" + bad + "}}"), "options.priority", priority);
			assertSameRefusal(client.post("/ojs/v1/cron", "{\"name\":\"bad-priority\",\"cron\":\"0 9 * * *\","
					+ "\"type\":\"limits.job\",\"options\":{\"priority\":" + bad + "}}"), "priority", priority);
		}
		assertSameRefusal(client.post("/ojs/v1/jobs/batch", "{\"jobs\":[" + job("[1]", "{}")
				+ ",{\"type\":\"limits.job\",\"args\":[],\"options\":{\"priority\":500}}]}"),
				"jobs[1].options.priority", priority);
		assertThat(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":{\"priority\":100}}")
			.status()).isEqualTo(201);
		String tags = javaRefusal(() -> this.template.enqueue("limits.job",
				JobOptions.builder().tags(Arrays.asList("a", null)).build()), "tags");
		assertThat(tags).isEqualTo(JobOptionRules.TAGS_MESSAGE);
		for (String bad : List.of("[\"a\",null]", "[1]", "\"a\"", "{}")) {
			assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":"
					+ "{\"tags\":" + bad + "}}"), "options.tags", tags);
		}
		String pending = javaRefusal(() -> this.template.enqueue("limits.job",
				JobOptions.builder().pending(true).delay(java.time.Duration.ofMinutes(1)).build()), "pending");
		assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":"
				+ "{\"pending\":true,\"scheduled_at\":\"+PT1M\"}}"), "options.pending", pending);
		java.time.Instant at = java.time.Instant.parse("2100-01-01T00:00:00Z");
		String expires = javaRefusal(() -> this.template.enqueue("limits.job",
				JobOptions.builder().runAt(at).expiresAt(at.minusSeconds(1)).build()), "expires_at");
		assertSameRefusal(client.post("/ojs/v1/jobs", "{\"type\":\"limits.job\",\"args\":[],\"options\":"
				+ "{\"scheduled_at\":\"2100-01-01T00:00:00Z\",\"expires_at\":\"2099-12-31T23:59:59Z\"}}"),
				"options.expires_at", expires);
	}

	private static String javaRefusal(Runnable call, String field) {
		try {
			call.run();
		}
		catch (OjsValidationException ex) {
			assertThat(ex.getField()).isEqualTo(field);
			return ex.getMessage();
		}
		throw new AssertionError("Not refused");
	}

	private static void assertSameRefusal(OjsClient.Response response, String field, String message) {
		assertRefused(response, 400, field);
		assertThat(response.body().path("error").path("message").stringValue()).isEqualTo(message);
	}

	/** A pause over the binding goes through the queues service, as the Admin API's does: logged, the worker told. */
	@Test
	void pausesGoThroughTheQueuesService(CapturedOutput output) {
		OjsClient client = client();
		assertThat(client.post("/ojs/v1/queues/svc_q/pause", "{}").status()).isEqualTo(200);
		assertThat(output.getAll()).contains("OJS queue 'svc_q' paused");
		assertThat(client.post("/ojs/v1/queues/svc_q/resume", "{}").status()).isEqualTo(200);
		assertThat(output.getAll()).contains("OJS queue 'svc_q' resumed");
	}

	// ---- error bodies

	@Test
	void everyAnswerUnderOjsIsTheBindingsErrorBody(CapturedOutput output) {
		OjsClient client = client();
		OjsClient.Response unknown = client.get("/ojs/v1/nope");
		assertThat(unknown.status()).isEqualTo(404);
		assertThat(unknown.errorCode()).isEqualTo("not_found");
		assertThat(unknown.header("Content-Type")).startsWith("application/openjobspec+json");
		OjsClient.Response method = client.send("PUT", "/ojs/v1/jobs", "{}", Map.of("Content-Type", "application/json"));
		assertThat(method.status()).isEqualTo(405);
		assertThat(method.errorCode()).isEqualTo("invalid_request");
		assertThat(method.header("Allow")).contains("POST");
		assertThat(method.header("Content-Type")).startsWith("application/openjobspec+json");
		OjsClient.Response adminMethod = client.send("PATCH", ADMIN + "/stats", null, Map.of());
		assertThat(adminMethod.status()).isEqualTo(405);
		assertThat(adminMethod.errorCode()).isEqualTo("invalid_request");
		OjsClient.Response mediaType = client.send("POST", ADMIN + "/jobs/bulk/cancel", "filter",
				Map.of("Content-Type", "text/plain"));
		assertThat(mediaType.status()).isEqualTo(415);
		assertThat(mediaType.errorCode()).isEqualTo("invalid_request");
		// writes to unknown Admin API paths: 404 or 405 (403 when cross-site, refused first), and no error logged
		for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of("Sec-Fetch-Site", "cross-site"))) {
			for (String verb : List.of("POST", "PUT", "DELETE")) {
				OjsClient.Response write = client.send(verb, ADMIN + "/nope", "{}",
						with(headers, "Content-Type", "application/json"));
				if (headers.isEmpty()) {
					assertThat(write.status()).as(verb + ": " + write.text()).isIn(404, 405);
				}
				else {
					assertThat(write.status()).as(verb + " cross-site: " + write.text()).isEqualTo(403);
				}
				assertThat(write.body().path("error").path("code").isString()).as(write.text()).isTrue();
			}
		}
		OjsClient.Response root = client.get("/ojs/nope");
		assertThat(root.status()).isEqualTo(404);
		assertThat(root.errorCode()).isEqualTo("not_found");
		assertThat(output.getAll()).doesNotContain(" ERROR ");
	}

	private static Map<String, String> with(Map<String, String> headers, String name, String value) {
		Map<String, String> all = new java.util.HashMap<>(headers);
		all.put(name, value);
		return all;
	}

	@Test
	void errorBodiesNameNoFrameworkOrJavaType() {
		OjsClient client = client();
		Map<String, String> json = Map.of("Content-Type", "application/json");
		List<OjsClient.Response> responses = new java.util.ArrayList<>();
		for (String path : List.of("/ojs/v1/dead-letter?limit=abc", "/ojs/v1/dead-letter?offset=1.5",
				"/ojs/v1/dead-letter?limit=99999999999", ADMIN + "/jobs?per_page=xyz",
				ADMIN + "/jobs?state=FooBar", ADMIN + "/jobs?since=yesterday", ADMIN + "/jobs?id=nope",
				ADMIN + "/jobs?cursor=abc", ADMIN + "/jobs?order=up", ADMIN + "/dead-letter?per_page=1e3",
				ADMIN + "/stats/history?period=7x", ADMIN + "/stats/history?since=today", ADMIN + "/stats/top-failing?since=x",
				"/ojs/v1/jobs/not-a-uuid", ADMIN + "/jobs/not-a-uuid", "/ojs/v1/nope", ADMIN + "/nope")) {
			responses.add(client.get(path));
		}
		for (String body : List.of("{", "[]", "[1,2]", "\"str\"", "null", "{\"filter\":5}", "{\"filter\":[]}",
				"{\"filter\":{\"state\":5}}", "{\"filter\":{\"state\":\"x\"}}", "{\"confirm\":\"yes\"}", "1e999999",
				"{\"filter\":{\"state\":\"available\",\"since\":\"x\"}}", "{\"a\":" + "[".repeat(2000) + "]")) {
			for (String path : List.of(ADMIN + "/jobs/bulk/cancel", ADMIN + "/jobs/bulk/retry", ADMIN + "/dead-letter/retry",
					"/ojs/v1/jobs", "/ojs/v1/jobs/batch", "/ojs/v1/workers/fetch", "/ojs/v1/workers/nack", "/ojs/v1/cron")) {
				responses.add(client.send("POST", path, body, json));
			}
			responses.add(client.send("PUT", ADMIN + "/queues/default/config", body, json));
			responses.add(client.send("DELETE", ADMIN + "/queues/default/jobs", body, json));
		}
		for (String body : List.of("{\"rate_limit\":\"x\"}", "{\"rate_limit\":{\"limit\":\"a\"}}", "{\"concurrency\":\"2\"}")) {
			responses.add(client.send("PUT", ADMIN + "/queues/default/config", body, json));
		}
		for (String body : List.of("{\"states\":[\"nope\"]}", "{\"states\":\"x\"}", "{\"states\":[\"completed\"],\"older_than\":5}")) {
			responses.add(client.send("DELETE", ADMIN + "/queues/default/jobs", body, json));
		}
		for (String verb : List.of("PUT", "PATCH", "DELETE", "POST")) {
			responses.add(client.send(verb, "/ojs/v1/health", "{}", json));
			responses.add(client.send(verb, ADMIN + "/stats", "{}", json));
		}
		responses.add(client.send("POST", ADMIN + "/jobs/bulk/cancel", "a=b", Map.of("Content-Type", "application/x-www-form-urlencoded")));
		responses.add(client.send("POST", ADMIN + "/jobs/bulk/cancel", "<a/>", Map.of("Content-Type", "application/xml")));
		responses.add(client.send("POST", ADMIN + "/jobs/bulk/cancel", "{}", Map.of("Content-Type", "application/json;charset=nope")));
		responses.add(client.send("GET", ADMIN + "/stats", null, Map.of("Accept", "application/xml")));
		responses.add(client.send("POST", "/ojs/v1/jobs", "{}", Map.of("Content-Type", "text/plain")));
		for (OjsClient.Response response : responses) {
			String text = response.text();
			assertThat(response.status()).as(text).isLessThan(500);
			if (response.status() >= 400) {
				assertThat(response.body().path("error").path("code").isString()).as(response.status() + " " + text)
					.isTrue();
			}
			for (String internal : List.of("java.", "org.springframework", "tools.jackson", "com.fasterxml", "Exception")) {
				assertThat(text).as(response.status() + " " + text).doesNotContain(internal);
			}
			assertThat(CLASS_NAME.matcher(text).find()).as(text).isFalse();
		}
	}

	// ---- raw uploads

	/** What a raw upload got: the status, the answer's headers and body, and the bytes sent when it came. */
	record Upload(int status, String headers, String body, long sentWhenAnswered) {
	}

	/**
	 * POSTs {@code total} bytes (chunked, or with that {@code Content-Length}) from another
	 * thread, and reads the answer while they are sent.
	 */
	private Upload upload(String path, boolean chunked, long total) throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
					+ HttpBindingTestApplication.TOKEN + "\r\nContent-Type: application/json\r\n"
					+ (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + total + "\r\n") + "\r\n";
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			AtomicLong sent = new AtomicLong();
			Thread sender = new Thread(() -> {
				// a JSON object with one long string, so that the reader reads on until the limit
				byte[] first = new byte[8192];
				Arrays.fill(first, (byte) 'x');
				byte[] start = "{\"filter\":\"".getBytes(StandardCharsets.US_ASCII);
				System.arraycopy(start, 0, first, 0, start.length);
				byte[] rest = new byte[8192];
				Arrays.fill(rest, (byte) 'x');
				try {
					while (sent.get() < total) {
						byte[] chunk = (sent.get() == 0) ? first : rest;
						if (chunked) {
							out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
						}
						out.write(chunk);
						if (chunked) {
							out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
						}
						sent.addAndGet(chunk.length);
					}
					if (chunked) {
						out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
					}
					out.flush();
				}
				catch (IOException ex) {
					// the server closed the connection: expected once it has answered
				}
			});
			sender.setDaemon(true);
			sender.start();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream answer = new ByteArrayOutputStream();
			long sentWhenAnswered = -1;
			byte[] buffer = new byte[4096];
			int n;
			while ((n = in.read(buffer)) > 0) {
				if (sentWhenAnswered < 0) {
					sentWhenAnswered = sent.get();
				}
				answer.write(buffer, 0, n);
				String text = answer.toString(StandardCharsets.UTF_8);
				if (text.contains("\r\n\r\n") && text.contains("}}")) {
					break;
				}
			}
			String text = answer.toString(StandardCharsets.UTF_8);
			int end = text.indexOf("\r\n\r\n");
			String headers = text.substring(0, end);
			String body = text.substring(text.indexOf('{', end), text.lastIndexOf('}') + 1);
			int status = Integer.parseInt(headers.substring(9, 12));
			return new Upload(status, headers, body, sentWhenAnswered);
		}
	}

}

package dev.ojs.web.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 10,000 malformed requests (issue: bad input gets a 4xx with the binding's error body,
 * never a 5xx, and nothing is stored): broken bodies of every endpoint, invalid job types,
 * queues, arguments, options and retry policies, wrong media types, versions and tokens,
 * and random ids, from a fixed seed so that a failure can be replayed.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"logging.level.dev.ojs=ERROR" })
class HttpBindingFuzzTests {

	static final int REQUESTS = 10_000;

	static final long SEED = 20261125L;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Value("${ojs.jdbc.table-prefix}")
	String tablePrefix;

	private final SplittableRandom random = new SplittableRandom(SEED);

	/** One malformed request. */
	record Case(String method, String path, String body, Map<String, String> headers, boolean authenticate) {

	}

	@Test
	void malformedRequestsGet4xxWithTheErrorBodyAndStoreNothing() {
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		long before = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "jobs", Long.class);
		List<Supplier<Case>> generators = List.of(this::badEnqueueBody, this::badEnqueueBody, this::badEnqueueBody,
				this::badJson, this::badWorkerBody, this::badWorkerBody, this::badHeaders, this::badId);
		Map<Integer, Integer> statuses = new TreeMap<>();
		for (int i = 0; i < REQUESTS; i++) {
			Case request = generators.get(this.random.nextInt(generators.size())).get();
			OjsClient.Response response = client.send(request.method(), request.path(), request.body(),
					request.headers(), request.authenticate());
			String described = i + ": " + request + " -> " + response.status() + " " + response.text();
			assertThat(response.status()).as(described).isBetween(400, 499);
			JsonNode error = response.body().path("error");
			assertThat(error.path("code").isString()).as(described).isTrue();
			assertThat(error.path("message").isString()).as(described).isTrue();
			assertThat(error.path("retryable").isBoolean()).as(described).isTrue();
			assertThat(error.path("request_id").stringValue()).as(described).isEqualTo(response.header("X-Request-Id"));
			assertThat(response.header("OJS-Version")).as(described).isEqualTo("1.0");
			statuses.merge(response.status(), 1, Integer::sum);
		}
		long after = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "jobs", Long.class);
		assertThat(after).isEqualTo(before);
		assertThat(statuses).containsKeys(400, 401, 404, 422);
	}

	private static Map<String, String> json() {
		return Map.of("Content-Type", OjsHttp.MEDIA_TYPE_VALUE);
	}

	/** A valid enqueue body with one thing broken. */
	private Case badEnqueueBody() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("type", "fuzz.job");
		body.put("args", List.of(1, "two"));
		Map<String, Object> options = new LinkedHashMap<>();
		if (this.random.nextBoolean()) {
			options.put("queue", "fuzz");
		}
		body.put("options", options);
		switch (this.random.nextInt(15)) {
			case 0 -> body.put("type", pick(badTypes()));
			case 1 -> body.remove("type");
			case 2 -> body.put("args", pick(List.of(Map.of("a", 1), "args", 1, true)));
			case 3 -> body.remove("args");
			case 4 -> body.put("meta", pick(List.of(List.of(1), "meta", 3)));
			case 5 -> options.put("queue", pick(List.of("Upper", " space", "-lead", "a/b", "", "x".repeat(256), 5)));
			case 6 -> options.put("priority", pick(List.of(101, -101, "urgent", 1.5, Long.MAX_VALUE, List.of())));
			case 7 -> options.put("retry", badRetry());
			case 8 -> {
				options.put(pick(List.of("scheduled_at", "expires_at")),
						pick(List.of("tomorrow", "+P", "+PT-1S", "2026-13-01T00:00:00Z", 12)));
				if (this.random.nextBoolean()) {
					// an expiry before the scheduled time
					options.put("scheduled_at", "+PT1H");
					options.put("expires_at", "+PT1M");
				}
			}
			case 9 -> options.put(pick(List.of("timeout_ms", "visibility_timeout_ms")), pick(List.of(-1, "1s", 1.5)));
			case 10 -> options.put("tags", pick(List.of("tag", List.of(1), Map.of())));
			case 11 -> body.put("options", pick(List.of("options", List.of(), 7)));
			case 12 -> {
				if (this.random.nextBoolean()) {
					options.put("unique", pick(List.of(Map.of("keys", List.of("argz")), "2030-01-01T00:00:00Z", true,
							Map.of("period", "hourly"), Map.of("keys", List.of("meta")), Map.of("on_conflict", "merge"),
							"unique")));
				}
				else {
					options.put("rate_limit", pick(List.of(Map.of("max_per_second", 0), Map.of("max_per_second", "5"),
							Map.of("limit", 5), Map.of("period", "PT1H"), Map.of("limit", -1, "period", "PT1S"),
							Map.of("limit", 5, "period", "soon"), Map.of("limit", 5, "period", "PT0S"), "fast", true,
							List.of(5), Map.of("max_per_second", 5, "period", "PT1S"))));
				}
			}
			case 13 -> options.put("pending", pick(List.of("yes", 1, Map.of(), List.of(true))));
			default -> body.put(pick(List.of("id", "specversion")), pick(List.of("019414d4-0000-7000-8000-00000000000g", "2.0", 3)));
		}
		return new Case("POST", "/ojs/v1/jobs", OjsClient.JSON.writeValueAsString(body), json(), true);
	}

	private Object badRetry() {
		return pick(List.of(Map.of("max_attempts", -1), Map.of("max_attempts", "3"), Map.of("max_attempts", 1.5),
				Map.of("backoff_coefficient", 0.5), Map.of("initial_interval", "soon"), Map.of("initial_interval", 5),
				Map.of("max_interval", "PT0.001S", "initial_interval", "PT1H"), Map.of("jitter", "yes"),
				Map.of("non_retryable_errors", "all"), Map.of("on_exhaustion", "explode"),
				Map.of("backoff_strategy", "random"), Map.of("initial_interval_ms", -5), Map.of("max_interval_ms", "x"),
				Map.of("initial_interval_ms", 10, "initial_interval", "PT1S"), Map.of("unknown_field", 1), "retry", 5,
				List.of()));
	}

	private List<Object> badTypes() {
		return List.of("", "Email.send", "1abc", "a..b", ".a", "a.", "a b", "a/b", "ä.b", "a.B", "_a", "a.1b",
				"x".repeat(256), 5, true, List.of("a"), Map.of());
	}

	/** Not a JSON object at all. */
	private Case badJson() {
		String path = pick(List.of("/ojs/v1/jobs", "/ojs/v1/workers/fetch", "/ojs/v1/workers/ack", "/ojs/v1/workers/nack",
				"/ojs/v1/workers/heartbeat"));
		String body = pick(List.of("", "   ", "{", "}", "[]", "[1,2]", "null", "42", "\"text\"", "true", "{\"type\":",
				"{'type':'a.b'}", "{\"type\":\"a.b\",\"args\":[1,]}", "\u0000", "<xml/>", randomText(40),
				"{\"a\":" + "[".repeat(3000) + "]".repeat(3000) + "}"));
		return new Case("POST", path, body, json(), true);
	}

	/** A worker request with one thing broken. */
	private Case badWorkerBody() {
		String id = "019414d4-0000-7000-8000-" + String.format("%012x", this.random.nextLong(1L << 40));
		return switch (this.random.nextInt(4)) {
			case 0 -> {
				Map<String, Object> body = new LinkedHashMap<>();
				body.put("queues", pick(List.of(List.of(), "default", List.of("Bad Queue"), List.of(5), Map.of())));
				if (this.random.nextBoolean()) {
					body.put("count", pick(List.of(0, -1, 1001, "5", 2.5)));
				}
				if (this.random.nextBoolean()) {
					body.put("queues", List.of("default"));
					body.put(pick(List.of("count", "visibility_timeout_ms", "worker_id", "types")),
							pick(List.of(0, -5, "", List.of("Bad.Type"), 86_400_001L, "x".repeat(201))));
					if (body.get("types") instanceof String || body.get("types") instanceof Number) {
						body.put("types", List.of("Bad Type"));
					}
				}
				yield new Case("POST", "/ojs/v1/workers/fetch", OjsClient.JSON.writeValueAsString(body), json(), true);
			}
			case 1 -> new Case("POST", "/ojs/v1/workers/ack", OjsClient.JSON.writeValueAsString(
					pick(List.of(Map.of(), Map.of("job_id", 5), Map.of("job_id", ""), Map.of("job_id", id),
							Map.of("job_id", randomText(20)), Map.of("job_id", id, "worker_id", 3)))), json(), true);
			case 2 -> new Case("POST", "/ojs/v1/workers/nack", OjsClient.JSON.writeValueAsString(
					pick(List.of(Map.of("job_id", id), Map.of("job_id", id, "error", "boom"),
							Map.of("job_id", id, "error", Map.of("message", 5)),
							Map.of("job_id", id, "error", Map.of("message", "m", "retryable", "no")),
							Map.of("job_id", id, "error", Map.of("message", "m", "details", List.of())),
							Map.of("job_id", id, "error", Map.of("message", "m")),
							Map.of("job_id", id, "error", Map.of("message", "m"), "requeue", "yes"),
							Map.of("error", Map.of("message", "m"))))), json(), true);
			default -> new Case("POST", "/ojs/v1/workers/heartbeat", OjsClient.JSON.writeValueAsString(
					pick(List.of(Map.of(), Map.of("worker_id", 5), Map.of("worker_id", ""),
							Map.of("worker_id", "w", "active_jobs", "x"), Map.of("worker_id", "w", "active_jobs", List.of(5)),
							Map.of("worker_id", "w", "visibility_timeout_ms", 0),
							Map.of("active_jobs", List.of(id))))), json(), true);
		};
	}

	/** A valid enqueue with a broken header: media type, version or token. */
	private Case badHeaders() {
		String body = "{\"type\":\"fuzz.headers\",\"args\":[]}";
		return switch (this.random.nextInt(4)) {
			case 0 -> new Case("POST", "/ojs/v1/jobs", body, Map.of("Content-Type",
					pick(List.of("text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data",
							"json", "application/jsonx", ";;;", "application/openjobspec+xml"))), true);
			case 1 -> new Case("POST", "/ojs/v1/jobs", body, Map.of("Content-Type", "application/json", "OJS-Version",
					pick(List.of("2.0", "0.9", "v1", "latest", randomText(8).replaceAll("[^a-zA-Z0-9]", "x").replaceAll("^1", "x")))), true);
			case 2 -> new Case("POST", "/ojs/v1/jobs", body, Map.of("Content-Type", "application/json"), false);
			default -> new Case(pick(List.of("POST", "GET")), pick(List.of("/ojs/v1/jobs", "/ojs/v1/health")),
					body, Map.of("Content-Type", "application/json", "Authorization",
							pick(List.of("Bearer wrong", "Basic dGVzdA==", "Bearer", "bearer" + HttpBindingTestApplication.TOKEN,
									"Bearer " + HttpBindingTestApplication.TOKEN + "x"))), true);
		};
	}

	/** A random id where a job id belongs. */
	private Case badId() {
		String id = URLEncoder.encode(randomText(1 + this.random.nextInt(60)), StandardCharsets.UTF_8);
		return switch (this.random.nextInt(5)) {
			case 0 -> new Case("GET", "/ojs/v1/jobs/" + id, null, Map.of(), true);
			case 1 -> new Case("DELETE", "/ojs/v1/jobs/" + id, null, Map.of(), true);
			case 2 -> new Case("GET", "/ojs/v1/dead-letter/" + id, null, Map.of(), true);
			case 3 -> new Case("DELETE", "/ojs/v1/dead-letter/" + id, null, Map.of(), true);
			default -> new Case("POST", "/ojs/v1/dead-letter/" + id + "/retry", "{}", json(), true);
		};
	}

	/** Letters, digits, '-' and '_', sometimes non-ASCII; never path separators. */
	private String randomText(int length) {
		String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_éß漢";
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(alphabet.charAt(this.random.nextInt(alphabet.length())));
		}
		return text.toString();
	}

	private <T> T pick(List<T> values) {
		return values.get(this.random.nextInt(values.size()));
	}

}

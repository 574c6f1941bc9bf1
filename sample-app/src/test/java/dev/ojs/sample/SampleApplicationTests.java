package dev.ojs.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts the sample on embedded H2, enqueues every scenario over HTTP and checks where each
 * job ends up, and the dead letters through the actuator.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.enqueue-on-startup=false", "sample.dashboard.admin-password=" + SampleApplicationTests.ADMIN_PASSWORD })
class SampleApplicationTests {

	static final String ADMIN_PASSWORD = "admin-secret";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private SampleClient client;

	@BeforeEach
	void createClient(@LocalServerPort int port) {
		this.client = new SampleClient(port).as("admin", ADMIN_PASSWORD);
	}

	@Test
	void everyScenarioEndsAsDemonstrated() throws Exception {
		Map<String, String> ids = enqueueAll();
		JsonNode welcome = awaitTerminal(ids.get("welcome"));
		assertThat(welcome.get("state").asString()).isEqualTo("completed");
		JsonNode flaky = awaitTerminal(ids.get("flaky"));
		assertThat(flaky.get("state").asString()).isEqualTo("completed");
		assertThat(flaky.get("attempt").asInt()).isEqualTo(3);
		assertThat(flaky.get("errors")).hasSize(2);
		assertDeadLetter(awaitTerminal(ids.get("charge")), 1, "payments.card_declined", "RETRY");
		assertDeadLetter(awaitTerminal(ids.get("import")), 1, "validation.file_corrupt", "DEAD_LETTER");
		assertDeadLetter(awaitTerminal(ids.get("sync")), 3, "java.io.IOException", "RETRY");
		assertThat(this.client.get("/jobs/0190f5f0-0000-7000-8000-000000000000").statusCode()).isEqualTo(404);
		assertThat(this.client.post("/jobs/unknown").statusCode()).isEqualTo(404);
	}

	@Test
	@EnabledIf("actuatorEndpointsPresent")
	void deadLettersAreListedAndRetriedThroughTheActuator() throws Exception {
		Map<String, String> ids = enqueueAll();
		for (String id : ids.values()) {
			awaitTerminal(id);
		}
		Set<String> expected = Set.of(ids.get("charge"), ids.get("import"), ids.get("sync"));
		JsonNode page = this.client.getJson("/actuator/deadletters?size=100");
		Set<String> listed = page.findValues("id").stream().map(JsonNode::asString).collect(Collectors.toSet());
		assertThat(listed).containsAll(expected).doesNotContain(ids.get("welcome"), ids.get("flaky"));
		HttpResponse<String> detail = this.client.get("/actuator/deadletters/" + ids.get("import"));
		assertThat(detail.statusCode()).isEqualTo(200);
		assertThat(detail.body()).contains("validation.file_corrupt").contains("orders-2024-05.csv");
		HttpResponse<String> retried = this.client.post("/actuator/deadletters/" + ids.get("sync"));
		assertThat(retried.statusCode()).isEqualTo(200);
		JsonNode again = await().atMost(TIMEOUT)
			.until(() -> job(ids.get("sync")), (job) -> job.get("errors").size() == 6);
		assertDeadLetter(again, 3, "java.io.IOException", "RETRY");
	}

	static boolean actuatorEndpointsPresent() {
		return ClassUtils.isPresent("dev.ojs.spring.actuate.DeadLettersEndpoint", null);
	}

	private void assertDeadLetter(JsonNode job, int attempts, String errorType, String code) {
		assertThat(job.get("state").asString()).isEqualTo("discarded");
		assertThat(job.get("deadLetter").asBoolean()).isTrue();
		assertThat(job.get("attempt").asInt()).isEqualTo(attempts);
		JsonNode lastError = job.get("errors").get(job.get("errors").size() - 1);
		assertThat(lastError.get("type").asString()).isEqualTo(errorType);
		assertThat(lastError.get("code").asString()).isEqualTo(code);
	}

	private Map<String, String> enqueueAll() throws Exception {
		HttpResponse<String> response = this.client.post("/jobs");
		assertThat(response.statusCode()).isEqualTo(200);
		return this.client.readValue(response, new TypeReference<Map<String, String>>() {
		});
	}

	private JsonNode awaitTerminal(String id) {
		return await().atMost(TIMEOUT)
			.until(() -> job(id), (job) -> Set.of("completed", "discarded").contains(job.get("state").asString()));
	}

	private JsonNode job(String id) throws Exception {
		return this.client.getJson("/jobs/" + id);
	}

}

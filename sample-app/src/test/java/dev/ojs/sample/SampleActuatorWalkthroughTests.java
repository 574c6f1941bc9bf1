package dev.ojs.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts the sample as the README runs it (jobs enqueued at start-up, embedded H2) and walks
 * through the README's {@code curl} section against {@code /actuator/ojs},
 * {@code /actuator/deadletters} and {@code /actuator/health}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "sample.dashboard.admin-password=" + SampleActuatorWalkthroughTests.ADMIN_PASSWORD)
class SampleActuatorWalkthroughTests {

	static final String ADMIN_PASSWORD = "admin-secret";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Set<String> DEAD_LETTER_TYPES = Set.of("sample.charge", "sample.import", "sample.sync");

	private SampleClient client;

	@BeforeEach
	void createClient(@LocalServerPort int port) {
		this.client = new SampleClient(port).as("admin", ADMIN_PASSWORD);
	}

	@Test
	void deadLettersOfTheStartUpJobsCanBeInspectedRetriedAndDeleted() throws Exception {
		JsonNode page = await().atMost(TIMEOUT)
			.until(() -> this.client.getJson("/actuator/deadletters"), (list) -> list.get("total").asInt() == 3);
		assertThat(values(page.get("deadLetters"), "type")).isEqualTo(DEAD_LETTER_TYPES);

		assertThat(ids("/actuator/deadletters?type=sample.sync")).hasSize(1);
		assertThat(ids("/actuator/deadletters?errorType=payments.card_declined")).hasSize(1);
		assertThat(ids("/actuator/deadletters?errorType=java.io.IOException")).hasSize(1);
		assertThat(ids("/actuator/deadletters?queue=emails")).isEmpty();

		JsonNode stats = this.client.getJson("/actuator/deadletters/stats");
		assertThat(stats.get("total").asInt()).isEqualTo(3);
		assertThat(stats.get("byErrorType").propertyNames()).containsExactlyInAnyOrder("payments.card_declined",
				"validation.file_corrupt", "java.io.IOException");

		String sync = ids("/actuator/deadletters?type=sample.sync").get(0);
		JsonNode detail = this.client.getJson("/actuator/deadletters/" + sync);
		assertThat(detail.get("args").get(0).asString()).isEqualTo("acme");
		assertThat(values(detail.get("errors"), "attempt")).containsExactlyInAnyOrder("1", "2", "3");
		assertThat(detail.get("retryPolicy").get("max_attempts").asInt()).isEqualTo(3);
		assertThat(detail.get("retryPolicy").get("on_exhaustion").asString()).isEqualTo("dead_letter");

		HttpResponse<String> unconfirmed = this.client.postJson("/actuator/deadletters", "{\"type\": \"sample.sync\"}");
		assertThat(unconfirmed.statusCode()).isEqualTo(400);
		assertThat(unconfirmed.body()).contains("confirm=true");
		HttpResponse<String> confirmed = this.client.postJson("/actuator/deadletters",
				"{\"type\": \"sample.sync\", \"confirm\": true}");
		assertThat(confirmed.statusCode()).isEqualTo(200);
		assertThat(this.client.readTree(confirmed).get("retried").asInt()).isEqualTo(1);
		// same id and history: three more failed attempts, then back in the dead letter queue
		// (until then the dead letter detail answers 404)
		await().atMost(TIMEOUT)
			.ignoreExceptions()
			.until(() -> this.client.getJson("/actuator/deadletters/" + sync), (job) -> job.get("errors").size() == 6);

		String imported = ids("/actuator/deadletters?type=sample.import").get(0);
		assertThat(this.client.delete("/actuator/deadletters/" + imported).statusCode()).isEqualTo(204);
		assertThat(this.client.get("/actuator/deadletters/" + imported).statusCode()).isEqualTo(404);
		assertThat(this.client.getJson("/actuator/deadletters/stats").get("total").asInt()).isEqualTo(2);
	}

	@Test
	void ojsEndpointAndHealthDescribeTheSample() throws Exception {
		JsonNode ojs = this.client.getJson("/actuator/ojs");
		assertThat(values(ojs.get("handlers"), "type")).containsAll(DEAD_LETTER_TYPES)
			.contains("sample.welcome", "sample.flaky");
		assertThat(ojs.get("worker").get("mode").asString()).isEqualTo("worker");
		assertThat(ojs.get("worker").get("running").asBoolean()).isTrue();
		JsonNode health = this.client.getJson("/actuator/health");
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("components").get("ojs").get("status").asString()).isEqualTo("UP");
	}

	private List<String> ids(String path) throws Exception {
		return StreamSupport.stream(this.client.getJson(path).get("deadLetters").spliterator(), false)
			.map((deadLetter) -> deadLetter.get("id").asString())
			.toList();
	}

	private static Set<String> values(JsonNode array, String field) {
		return StreamSupport.stream(array.spliterator(), false)
			.map((element) -> element.get(field).asString())
			.collect(Collectors.toSet());
	}

}

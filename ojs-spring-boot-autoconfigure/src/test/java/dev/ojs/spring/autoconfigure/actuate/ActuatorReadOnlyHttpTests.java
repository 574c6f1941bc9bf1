package dev.ojs.spring.autoconfigure.actuate;

import java.util.Map;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.worker.Worker;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestApplication.POISON;
import static dev.ojs.spring.autoconfigure.actuate.ActuatorTestContexts.matching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsStringIgnoringCase;

/**
 * The {@code deadletters} and {@code ojs} endpoints with their default, read-only, access:
 * reads work, writes and deletes are refused and change nothing. Also the {@code ojs} health indicator going
 * {@code DOWN} when the job table disappears (last, as it breaks the application).
 */
@SpringBootTest(classes = ActuatorTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=deadletters,ojs,health",
				"management.endpoint.health.show-details=always", "management.health.ojs.enabled=true",
				"ojs.worker.poll-interval=50ms" })
@AutoConfigureRestTestClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActuatorReadOnlyHttpTests {

	private static final String TABLE_PREFIX = ActuatorTestContexts.randomTablePrefix();

	@Autowired
	private RestTestClient client;

	@Autowired
	private OjsTemplate ojs;

	@Autowired
	private JobStore store;

	@DynamicPropertySource
	static void tablePrefix(DynamicPropertyRegistry registry) {
		registry.add("ojs.jdbc.table-prefix", () -> TABLE_PREFIX);
	}

	@Test
	@Order(1)
	void readsAreAllowedAndWritesAreRefused() {
		String id = ActuatorTestContexts.deadLetter(this.ojs, this.store, POISON, "4111");
		this.client.get().uri("/actuator/deadletters").exchange().expectStatus().isOk();
		this.client.get().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isOk();
		this.client.get().uri("/actuator/deadletters/stats").exchange().expectStatus().isOk();
		this.client.post().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isEqualTo(405);
		this.client.post()
			.uri("/actuator/deadletters")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("confirm", true))
			.exchange()
			.expectStatus()
			.isEqualTo(405);
		this.client.delete().uri("/actuator/deadletters/{id}", id).exchange().expectStatus().isEqualTo(405);
		Job job = this.store.find(id).orElseThrow();
		assertThat(job.deadLetter()).isTrue();
		assertThat(job.errors()).hasSize(1);
		assertThat(this.store.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
	}

	@Test
	@Order(1)
	void queuesCannotBePausedOverHttp() {
		this.client.get().uri("/actuator/ojs").exchange().expectStatus().isOk();
		this.client.post().uri("/actuator/ojs/queues/default/pause").exchange().expectStatus().isNotFound();
		this.client.post().uri("/actuator/ojs/queues/default/resume").exchange().expectStatus().isNotFound();
		assertThat(this.store.queueStates()).isEmpty();
	}

	@Test
	@Order(2)
	void healthIsUpWhileTheTableIsThere() {
		this.client.get()
			.uri("/actuator/health/ojs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP");
	}

	@Test
	@Order(3)
	@DirtiesContext
	void healthIsDownWhenTheTableIsGone(@Autowired Worker worker, @Autowired JdbcTemplate jdbc) {
		worker.stop();
		jdbc.execute("DROP TABLE " + TABLE_PREFIX + "jobs");
		this.client.get()
			.uri("/actuator/health/ojs")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.status").isEqualTo("DOWN")
			.jsonPath("$.details.error").value(matching(containsStringIgnoringCase(TABLE_PREFIX + "jobs")));
		this.client.get().uri("/actuator/health").exchange().expectStatus().isEqualTo(503);
	}

}

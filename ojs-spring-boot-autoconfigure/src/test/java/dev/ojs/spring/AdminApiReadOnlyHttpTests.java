package dev.ojs.spring;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Admin API without Spring Security and with the defaults but {@code show-args}: every
 * write is refused while read-only (issue 15 item 3), and with {@code show-args=false} args
 * and meta never leave the server.
 */
@SpringBootTest(classes = IntegrationTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true", "ojs.dashboard.show-args=false", "ojs.worker.enabled=false" })
@AutoConfigureRestTestClient
class AdminApiReadOnlyHttpTests {

	private static final String API = "/ojs/v1/admin";

	@Autowired
	private RestTestClient client;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private JobStore jobStore;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	/** read-only (the default): every write is 403 forbidden in the error body, and changes nothing. */
	@Test
	void refusesEveryWriteWhileReadOnly() {
		String id = this.template.enqueue("it.ok", "secret@example.com");
		for (String write : List.of("/jobs/" + id + "/cancel", "/queues/default/pause", "/jobs/bulk/cancel",
				"/dead-letter/retry", "/schedules/any/trigger")) {
			this.client.post()
				.uri(API + write)
				.exchange()
				.expectStatus()
				.isForbidden()
				.expectBody()
				.jsonPath("$.error.code").isEqualTo("forbidden");
		}
		this.client.delete().uri(API + "/jobs/" + id).exchange().expectStatus().isForbidden();
		this.client.put()
			.uri(API + "/limits/types/it.ok")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("concurrency", 1))
			.exchange()
			.expectStatus()
			.isForbidden();
		assertThat(this.jobStore.typeLimits()).doesNotContainKey("it.ok");
		this.client.get().uri(API + "/limits").exchange().expectStatus().isOk();
		assertThat(this.jobStore.find(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
		this.client.get().uri(API + "/queues").exchange().expectStatus().isOk();
		this.client.get()
			.uri(API + "/system/config")
			.exchange()
			.expectBody()
			.jsonPath("$.read_only").isEqualTo(true)
			.jsonPath("$.can_write").isEqualTo(false)
			.jsonPath("$.show_args").isEqualTo(false);
	}

	/** show-args=false: the job detail has args_hidden and neither args nor meta. */
	@Test
	void hidesArgsAndMeta() {
		String id = this.template.enqueue("it.ok", "secret@example.com");
		String body = this.client.get()
			.uri(API + "/jobs/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(body).contains("\"args_hidden\":true").doesNotContain("secret@example.com")
			.doesNotContain("\"args\"").doesNotContain("\"meta\"");
		String list = this.client.get().uri(API + "/jobs").exchange().expectBody(String.class).returnResult()
			.getResponseBody();
		assertThat(list).contains(id).doesNotContain("secret@example.com");
	}

}

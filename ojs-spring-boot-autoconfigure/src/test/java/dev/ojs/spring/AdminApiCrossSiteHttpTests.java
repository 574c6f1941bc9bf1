package dev.ojs.spring;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import dev.ojs.job.JobStore;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Admin API without Spring Security and with {@code read-only=false} (issue 15 item 3):
 * writes pass, except cross-site ones: {@code Sec-Fetch-Site} present and not
 * {@code same-origin}, or an {@code Origin} other than the request's own.
 */
@SpringBootTest(classes = IntegrationTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false", "ojs.worker.enabled=false" })
@AutoConfigureRestTestClient
class AdminApiCrossSiteHttpTests {

	private static final String PAUSE = "/ojs/v1/admin/queues/cross/pause";

	@Autowired
	private RestTestClient client;

	@Autowired
	private JobStore jobStore;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@Test
	void refusesCrossSiteWrites() {
		forbidden("Sec-Fetch-Site", "cross-site");
		forbidden("Sec-Fetch-Site", "same-site");
		forbidden("Sec-Fetch-Site", "none");
		forbidden("Origin", "http://evil.example");
		forbidden("Origin", "http://localhost:" + (this.port + 1));
		assertThat(this.jobStore.queueStates()).noneMatch((queue) -> queue.name().equals("cross"));
	}

	@Test
	void allowsSameOriginWrites() {
		this.client.post()
			.uri("/ojs/v1/admin/queues/same/pause")
			.header("Sec-Fetch-Site", "same-origin")
			.header("Origin", "http://localhost:" + this.port)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.paused").isEqualTo(true);
		// a client that sends neither header (curl) is not a browser's cross-site request
		this.client.post().uri("/ojs/v1/admin/queues/same/resume").exchange().expectStatus().isOk();
		assertThat(this.jobStore.queueStates()).anyMatch((queue) -> queue.name().equals("same") && !queue.paused());
	}

	private void forbidden(String header, String value) {
		this.client.post()
			.uri(PAUSE)
			.header(header, value)
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.error.code").isEqualTo("forbidden");
	}

}

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
 * The Admin API without Spring Security, with {@code read-only=false} and loopback clients let
 * in: writes pass, except cross-origin ones ({@code OjsRequestGuard}): {@code Sec-Fetch-Site}
 * present and neither {@code same-origin} nor {@code none}, or without it an {@code Origin}
 * whose host is not the request's {@code Host}.
 */
@SpringBootTest(classes = IntegrationTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true", "ojs.dashboard.read-only=false", "ojs.worker.enabled=false" })
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
		forbidden("Origin", "http://evil.example");
		forbidden("Origin", "null");
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

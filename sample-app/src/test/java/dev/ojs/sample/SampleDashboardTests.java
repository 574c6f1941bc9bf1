package dev.ojs.sample;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.sample.SampleSecurityConfiguration.DashboardUsers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's dashboard (ExecutableJarIT reads the printed password): the page and the Admin
 * API need a user, the viewer reads but may not write, and the admin writes with the CSRF token
 * that {@code system/config} hands out.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.enqueue-on-startup=false")
class SampleDashboardTests {

	@LocalServerPort
	private int port;

	@Autowired
	private DashboardUsers users;

	private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

	@Test
	void passwordsAreGeneratedAndDiffer() {
		assertThat(this.users.adminPassword()).hasSizeGreaterThanOrEqualTo(20).isNotEqualTo(this.users.viewerPassword());
	}

	@Test
	void thePageAndTheApiNeedAUser() throws Exception {
		assertThat(send(get("/ojs/"), null).statusCode()).isEqualTo(401);
		assertThat(send(get("/ojs/v1/admin/stats"), null).statusCode()).isEqualTo(401);
		assertThat(send(get("/ojs/v1/admin/stats"), "viewer:wrong").statusCode()).isEqualTo(401);
		HttpResponse<String> page = send(get("/ojs/"), "viewer:" + this.users.viewerPassword());
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("assets/dashboard.js", "content=\"../ojs/v1/admin\"");
		assertThat(send(get("/jobs/0190f5f0-0000-7000-8000-000000000000"), null).statusCode())
			.as("the sample's own endpoints stay open")
			.isEqualTo(404);
	}

	@Test
	void theViewerReadsButMayNotWrite() throws Exception {
		String viewer = "viewer:" + this.users.viewerPassword();
		assertThat(send(get("/ojs/v1/admin/queues"), viewer).statusCode()).isEqualTo(200);
		JsonNode config = JsonMapper.shared().readTree(send(get("/ojs/v1/admin/system/config"), viewer).body());
		assertThat(config.get("can_write").asBoolean()).as("the dashboard hides write buttons from the viewer").isFalse();
		String token = config.get("csrf").get("token").asString();
		HttpResponse<String> pause = send(post("/ojs/v1/admin/queues/default/pause").header("X-CSRF-TOKEN", token), viewer);
		assertThat(pause.statusCode()).isEqualTo(403);
	}

	@Test
	void theAdminWritesWithTheCsrfToken() throws Exception {
		String admin = "admin:" + this.users.adminPassword();
		assertThat(send(post("/ojs/v1/admin/queues/default/pause"), admin).statusCode()).as("no CSRF token").isEqualTo(403);
		String token = csrf(admin);
		HttpResponse<String> pause = send(post("/ojs/v1/admin/queues/default/pause").header("X-CSRF-TOKEN", token), admin);
		assertThat(pause.statusCode()).isEqualTo(200);
		assertThat(JsonMapper.shared().readTree(pause.body()).get("paused").asBoolean()).isTrue();
		HttpResponse<String> resume = send(post("/ojs/v1/admin/queues/default/resume").header("X-CSRF-TOKEN", token), admin);
		assertThat(JsonMapper.shared().readTree(resume.body()).get("paused").asBoolean()).isFalse();
	}

	/** The admin's CSRF token, from the dashboard's bootstrap call. */
	private String csrf(String user) throws Exception {
		JsonNode config = JsonMapper.shared().readTree(send(get("/ojs/v1/admin/system/config"), user).body());
		assertThat(config.get("read_only").asBoolean()).isFalse();
		assertThat(config.get("can_write").asBoolean()).isTrue();
		assertThat(config.get("csrf").get("header_name").asString()).isEqualTo("X-CSRF-TOKEN");
		return config.get("csrf").get("token").asString();
	}

	private HttpRequest.Builder get(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).GET();
	}

	private HttpRequest.Builder post(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.POST(HttpRequest.BodyPublishers.noBody());
	}

	private HttpResponse<String> send(HttpRequest.Builder request, String user) throws Exception {
		if (user != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(user.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}

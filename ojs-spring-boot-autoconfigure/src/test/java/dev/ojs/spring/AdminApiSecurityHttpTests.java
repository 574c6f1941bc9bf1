package dev.ojs.spring;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.job.JobStore;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Admin API with Spring Security (issue 15 item 3), over a real server: reads need the
 * viewer role (the admin role also reads), writes the admin role and the CSRF token that
 * {@code system/config} hands out; the anonymous get HTTP Basic's challenge.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, AdminApiSecurityHttpTests.Users.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false", "ojs.worker.enabled=false" })
class AdminApiSecurityHttpTests {

	private static final String API = "/ojs/v1/admin";

	private static final JsonMapper json = new JsonMapper();

	@LocalServerPort
	private int port;

	@Autowired
	private JobStore jobStore;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@Test
	void anonymousRequestsAreChallenged() throws Exception {
		HttpResponse<String> response = send(HttpClient.newHttpClient(), "GET", API + "/queues", null, null, null);
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying((v) -> assertThat(v).startsWith("Basic"));
		assertThat(response.body()).contains("\"code\":\"unauthorized\"");
		assertThat(send(HttpClient.newHttpClient(), "GET", "/ojs", null, null, null).statusCode()).isEqualTo(401);
	}

	@Test
	void viewersReadButCannotWrite() throws Exception {
		HttpClient viewer = client();
		assertThat(send(viewer, "GET", API + "/queues", "viewer", null, null).statusCode()).isEqualTo(200);
		String token = csrfToken(viewer, "viewer");
		HttpResponse<String> write = send(viewer, "POST", API + "/queues/secured/pause", "viewer", token, null);
		assertThat(write.statusCode()).isEqualTo(403);
		assertThat(write.body()).contains("\"code\":\"forbidden\"");
		assertThat(send(client(), "GET", API + "/queues", "nobody", null, null).statusCode()).isEqualTo(403);
		assertThat(this.jobStore.queueStates()).noneMatch((queue) -> queue.name().equals("secured"));
	}

	@Test
	void adminsWriteWithTheCsrfToken() throws Exception {
		HttpClient admin = client();
		assertThat(send(admin, "GET", API + "/queues", "admin", null, null).statusCode()).isEqualTo(200);
		HttpResponse<String> withoutToken = send(admin, "POST", API + "/queues/secured-admin/pause", "admin", null, null);
		assertThat(withoutToken.statusCode()).isEqualTo(403);
		assertThat(send(admin, "POST", API + "/queues/secured-admin/pause", "admin", "wrong-token", null).statusCode())
			.isEqualTo(403);
		assertThat(this.jobStore.queueStates()).noneMatch((queue) -> queue.name().equals("secured-admin"));
		String token = csrfToken(admin, "admin");
		HttpResponse<String> withToken = send(admin, "POST", API + "/queues/secured-admin/pause", "admin", token, null);
		assertThat(withToken.statusCode()).isEqualTo(200);
		assertThat(this.jobStore.queueStates()).anyMatch((queue) -> queue.name().equals("secured-admin") && queue.paused());
	}

	private String csrfToken(HttpClient client, String user) throws Exception {
		HttpResponse<String> config = send(client, "GET", API + "/system/config", user, null, null);
		assertThat(config.statusCode()).isEqualTo(200);
		Map<?, ?> body = json.readValue(config.body(), Map.class);
		// the dashboard hides write buttons from viewers
		assertThat(body.get("can_write")).isEqualTo(user.equals("admin"));
		Map<?, ?> csrf = (Map<?, ?>) body.get("csrf");
		assertThat(csrf).isNotNull();
		assertThat(csrf.get("header_name")).isEqualTo("X-CSRF-TOKEN");
		return (String) csrf.get("token");
	}

	private static HttpClient client() {
		return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
	}

	private HttpResponse<String> send(HttpClient client, String method, String path, String user, String csrf,
			String body) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body)
					: HttpRequest.BodyPublishers.noBody());
		if (user != null) {
			request.header("Authorization", "Basic "
					+ Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8)));
		}
		if (csrf != null) {
			request.header("X-CSRF-TOKEN", csrf);
		}
		return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Spring Security with three users: a viewer, an admin, and one without either role. */
	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Users {

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("viewer").password("{noop}secret").roles("OJS_VIEWER").build(),
					User.withUsername("admin").password("{noop}secret").roles("OJS_ADMIN").build(),
					User.withUsername("nobody").password("{noop}secret").roles("OTHER").build());
		}

	}

}

package dev.ojs.web.http;

import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The binding's access rules with Spring Security: producers push, workers fetch, admins do
 * both and manage dead letters, under the roles named by {@code ojs.http.*-role}; refusals
 * are 401/403 with the binding's error body; no CSRF token is needed; the bearer token
 * filter is not used; the Admin API's paths are left to their own chain.
 */
@SpringBootTest(classes = { HttpBindingTestApplication.class, HttpBindingSecurityTests.Users.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.producer-role=PRODUCE", "ojs.http.worker-role=WORK",
				"ojs.http.admin-role=OPERATE" })
class HttpBindingSecurityTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Users {

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(user("producer", "PRODUCE"), user("worker", "WORK"),
					user("admin", "OPERATE"), user("nobody", "OTHER"));
		}

		private static org.springframework.security.core.userdetails.UserDetails user(String name, String role) {
			return User.withUsername(name).password("{noop}secret").roles(role).build();
		}

	}

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, null);
	}

	private OjsClient.Response as(String user, String method, String path, String body) {
		String basic = "Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes());
		return this.client.send(method, path, body,
				(body != null) ? Map.of("Authorization", basic, "Content-Type", "application/json")
						: Map.of("Authorization", basic));
	}

	private static final String JOB = "{\"type\":\"secure.job\",\"args\":[],\"options\":{\"queue\":\"secure\"}}";

	private static final String FETCH = "{\"queues\":[\"secure\"]}";

	@Test
	void producersPushWorkersFetchAdminsDoBoth() {
		assertThat(as("producer", "POST", "/ojs/v1/jobs", JOB).status()).isEqualTo(201);
		assertThat(as("producer", "POST", "/ojs/v1/workers/fetch", FETCH).status()).isEqualTo(403);
		assertThat(as("worker", "POST", "/ojs/v1/jobs", JOB).status()).isEqualTo(403);
		assertThat(as("worker", "POST", "/ojs/v1/workers/fetch", FETCH).body().path("jobs")).hasSize(1);
		assertThat(as("admin", "POST", "/ojs/v1/jobs", JOB).status()).isEqualTo(201);
		assertThat(as("admin", "POST", "/ojs/v1/workers/fetch", FETCH).body().path("jobs")).hasSize(1);
		assertThat(as("admin", "GET", "/ojs/v1/dead-letter", null).status()).isEqualTo(200);
		assertThat(as("producer", "GET", "/ojs/v1/dead-letter", null).status()).isEqualTo(403);
		assertThat(as("worker", "GET", "/ojs/v1/dead-letter", null).status()).isEqualTo(403);
		for (String user : List.of("producer", "worker", "admin")) {
			assertThat(as(user, "GET", "/ojs/manifest", null).status()).as(user).isEqualTo(200);
			assertThat(as(user, "GET", "/ojs/v1/health", null).status()).as(user).isEqualTo(200);
		}
	}

	@Test
	void refusalsCarryTheBindingsErrorBody() {
		OjsClient.Response anonymous = this.client.send("POST", "/ojs/v1/jobs", JOB,
				Map.of("Content-Type", "application/json"));
		assertThat(anonymous.status()).isEqualTo(401);
		assertThat(anonymous.errorCode()).isEqualTo("unauthorized");
		assertThat(anonymous.header("OJS-Version")).isEqualTo("1.0");
		assertThat(anonymous.body().path("error").path("request_id").stringValue())
			.isEqualTo(anonymous.header("X-Request-Id"));
		OjsClient.Response wrongPassword = this.client.send("GET", "/ojs/v1/health", null,
				Map.of("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:nope".getBytes())));
		assertThat(wrongPassword.status()).isEqualTo(401);
		OjsClient.Response otherRole = as("nobody", "GET", "/ojs/v1/health", null);
		assertThat(otherRole.status()).isEqualTo(403);
		assertThat(otherRole.errorCode()).isEqualTo("forbidden");
		assertThat(this.client.send("GET", "/ojs/v1/health", null, Map.of("Authorization", "Bearer anything")).status())
			.isEqualTo(401);
	}

	/** No CSRF token needed, no session created: every request authenticates. */
	@Test
	void noCsrfTokenAndNoSession() {
		OjsClient.Response created = as("producer", "POST", "/ojs/v1/jobs", JOB);
		assertThat(created.status()).isEqualTo(201);
		assertThat(created.header("Set-Cookie")).isNull();
		String id = created.body().path("job").path("id").stringValue();
		assertThat(as("producer", "DELETE", "/ojs/v1/jobs/" + id, null).status()).isEqualTo(200);
	}

	/** The bearer token filter is for applications without Spring Security only; the Admin API's paths are not this chain's. */
	@Test
	void noTokenFilterAndAdminPathsAreLeftAlone() {
		assertThat(this.context.getBeansOfType(FilterRegistrationBean.class).values())
			.noneMatch((registration) -> registration.getFilter() instanceof dev.ojs.web.OjsAccessFilter);
		OjsClient.Response admin = this.client.send("GET", "/ojs/v1/admin/queues", null, Map.of());
		// no Admin API in this application: not found, not refused by the binding's roles
		assertThat(admin.status()).isEqualTo(404);
		assertThat(admin.errorCode()).isEqualTo("not_found");
	}

}

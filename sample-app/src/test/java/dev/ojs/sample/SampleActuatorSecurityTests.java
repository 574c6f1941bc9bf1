package dev.ojs.sample;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's actuator as an attacker meets it: health is open, every other read needs the
 * viewer or the admin role, every write the admin role, and a write a browser sends from
 * another origin is refused even with the admin's credentials.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.enqueue-on-startup=false", "sample.dashboard.admin-password=admin-secret",
				"sample.dashboard.viewer-password=viewer-secret" })
class SampleActuatorSecurityTests {

	private SampleClient anonymous;

	private SampleClient viewer;

	private SampleClient admin;

	@BeforeEach
	void clients(@LocalServerPort int port) {
		this.anonymous = new SampleClient(port);
		this.viewer = this.anonymous.as("viewer", "viewer-secret");
		this.admin = this.anonymous.as("admin", "admin-secret");
	}

	@Test
	void healthIsOpenAndEveryOtherReadNeedsAUser() throws Exception {
		assertThat(this.anonymous.get("/actuator/health").statusCode()).isEqualTo(200);
		for (String path : new String[] { "/actuator/ojs", "/actuator/deadletters", "/actuator/recurringjobs" }) {
			assertThat(this.anonymous.get(path).statusCode()).as(path).isEqualTo(401);
			assertThat(this.anonymous.as("admin", "wrong").get(path).statusCode()).as(path).isEqualTo(401);
			assertThat(this.viewer.get(path).statusCode()).as(path).isEqualTo(200);
			assertThat(this.admin.get(path).statusCode()).as(path).isEqualTo(200);
		}
	}

	@Test
	void writesNeedTheAdminRole() throws Exception {
		String pause = "/actuator/ojs/queues/default/pause";
		assertThat(this.anonymous.post(pause).statusCode()).isEqualTo(401);
		assertThat(this.viewer.post(pause).statusCode()).isEqualTo(403);
		assertThat(this.admin.post(pause).statusCode()).isEqualTo(200);
		assertThat(this.admin.getJson("/actuator/ojs").path("pausedQueues").has("default")).isTrue();
		assertThat(this.admin.post("/actuator/ojs/queues/default/resume").statusCode()).isEqualTo(200);
		assertThat(this.admin.getJson("/actuator/ojs").path("pausedQueues").has("default")).isFalse();
	}

	@Test
	void crossOriginWritesAreRefusedWhateverTheCredential() throws Exception {
		String pause = "/actuator/ojs/queues/default/pause";
		assertThat(this.admin.postFrom("http://evil.example", pause).statusCode()).isEqualTo(403);
		assertThat(this.admin.postFrom("null", pause).statusCode()).isEqualTo(403);
		assertThat(this.admin.getJson("/actuator/ojs").path("pausedQueues").has("default")).isFalse();
	}

	@Test
	void anonymousRequestsMakeNoSession() throws Exception {
		assertThat(this.anonymous.get("/actuator/deadletters").headers().firstValue("Set-Cookie")).isEmpty();
		assertThat(this.anonymous.get("/ojs/v1/admin/stats").headers().firstValue("Set-Cookie")).isEmpty();
	}

}

package dev.ojs.spring;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import dev.ojs.job.JobStore;
import dev.ojs.testsupport.TestDatabases;

import static dev.ojs.spring.RecurringJobsHttpTestApplication.YEARLY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recurring jobs in the Admin API (extension, ojs-cron.md §8): the next five fire times from the
 * recurring job's cron code, and pause, resume and trigger through {@link OjsRecurringJobs}.
 */
@SpringBootTest(classes = RecurringJobsHttpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.application.name=cron-admin", "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true",
				"ojs.dashboard.read-only=false" })
@AutoConfigureRestTestClient
class AdminApiRecurringJobsHttpTests {

	private static final String API = "/ojs/v1/admin/schedules";

	@Autowired
	private RestTestClient client;

	@Autowired
	private JobStore jobStore;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

	@Test
	void listsRecurringJobsWithTheirNextFiveFireTimes() {
		Map<?, ?> yearly = definition(YEARLY);
		assertThat(yearly.get("expression")).isEqualTo("0 0 1 1 *");
		assertThat(yearly.get("timezone")).isEqualTo("Europe/Paris");
		List<?> times = (List<?>) yearly.get("next_fire_times");
		assertThat(times).hasSize(5);
		Instant first = Instant.parse((String) times.get(0));
		assertThat(first).isEqualTo(Instant.parse((String) yearly.get("next_run_at")));
		for (int i = 1; i < 5; i++) {
			Instant at = Instant.parse((String) times.get(i));
			// midnight of the first of January in Paris, a year apart
			assertThat(at.atZone(ZoneId.of("Europe/Paris")).getDayOfYear()).isEqualTo(1);
			assertThat(at).isAfter(Instant.parse((String) times.get(i - 1)));
		}
	}

	@Test
	void pausesResumesAndTriggersARecurringJob() {
		Map<?, ?> paused = post(API + "/" + YEARLY + "/pause");
		assertThat(paused.get("paused")).isEqualTo(true);
		assertThat((List<?>) paused.get("next_fire_times")).isEmpty();
		assertThat(post(API + "/" + YEARLY + "/resume").get("paused")).isEqualTo(false);
		Map<?, ?> triggered = post(API + "/" + YEARLY + "/trigger");
		String jobId = (String) triggered.get("job_id");
		assertThat(this.jobStore.find(jobId)).hasValueSatisfying((job) -> assertThat(job.type()).isEqualTo("http.cron_yearly"));
		this.client.post()
			.uri(API + "/none/pause")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.error.code").isEqualTo("not_found");
	}

	private Map<?, ?> definition(String name) {
		for (Object item : (List<?>) this.client.get().uri(API).exchange().expectStatus().isOk().expectBody(Map.class)
			.returnResult().getResponseBody().get("items")) {
			if (name.equals(((Map<?, ?>) item).get("name"))) {
				return (Map<?, ?>) item;
			}
		}
		throw new AssertionError("No schedule " + name);
	}

	private Map<?, ?> post(String uri) {
		return this.client.post().uri(uri).exchange().expectStatus().isOk().expectBody(Map.class).returnResult()
			.getResponseBody();
	}

}

package dev.ojs.spring;

import java.sql.Timestamp;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.client.RestTestClient;

import static dev.ojs.spring.RecurringJobsHttpTestApplication.YEARLY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code recurringjobs} endpoint with its default, read-only, access: reads work; pause,
 * resume and trigger are refused and change nothing in the schedules and jobs tables.
 * Subclasses choose the database.
 */
@SpringBootTest(classes = RecurringJobsHttpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.application.name=cron-http",
				"management.endpoints.web.exposure.include=recurringjobs" })
@AutoConfigureRestTestClient
abstract class RecurringJobsReadOnlyHttpTests {

	@Autowired
	private RestTestClient client;

	@Autowired
	private JdbcTemplate jdbc;

	@Value("${ojs.jdbc.table-prefix}")
	private String tablePrefix;

	@Test
	void readsAreAllowedAndWritesAreRefused() {
		this.client.get().uri("/actuator/recurringjobs").exchange().expectStatus().isOk();
		this.client.get()
			.uri("/actuator/recurringjobs/{name}", YEARLY)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.paused").isEqualTo(false);
		Timestamp next = nextRunAt();
		assertThat(next).isNotNull();
		for (String action : new String[] { "pause", "resume", "trigger" }) {
			this.client.post()
				.uri("/actuator/recurringjobs/{name}", YEARLY)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("action", action))
				.exchange()
				.expectStatus()
				.isEqualTo(405);
		}
		assertThat(nextRunAt()).isEqualTo(next);
		assertThat(this.jdbc.queryForObject(
				"SELECT COUNT(*) FROM " + this.tablePrefix + "jobs WHERE type = 'http.cron_yearly'", Integer.class))
			.isZero();
		assertThat(this.jdbc.queryForObject(
				"SELECT last_job_id FROM " + this.tablePrefix + "schedules WHERE name = ?", String.class, YEARLY))
			.isNull();
	}

	private Timestamp nextRunAt() {
		return this.jdbc.queryForObject("SELECT next_run_at FROM " + this.tablePrefix + "schedules WHERE name = ?",
				Timestamp.class, YEARLY);
	}

}

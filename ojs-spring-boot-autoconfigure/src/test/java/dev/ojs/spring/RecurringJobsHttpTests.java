package dev.ojs.spring;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.test.web.servlet.client.StatusAssertions;

import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobListener;
import dev.ojs.spring.actuate.RecurringJobMetricsListener;
import dev.ojs.spring.autoconfigure.OjsRecurringJobsLifecycle;

import static dev.ojs.spring.RecurringJobsHttpTestApplication.BLOCKED;
import static dev.ojs.spring.RecurringJobsHttpTestApplication.YEARLY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code recurringjobs} endpoint over HTTP with writes allowed
 * ({@code management.endpoint.recurringjobs.access=unrestricted}), checked against the
 * schedules and jobs tables (ojs-cron.md §8, CRON-28); the meters of a triggered and a
 * skipped occurrence (§9, CRON-29/30); and the {@code recurringJobs} health component, up while
 * the evaluator runs and down once it has not evaluated for 5 intervals. Subclasses choose
 * the database; {@link RecurringJobsReadOnlyHttpTests} covers the default access.
 */
@SpringBootTest(classes = RecurringJobsHttpTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.application.name=cron-http",
				"management.endpoints.web.exposure.include=recurringjobs,health,metrics",
				"management.endpoint.recurringjobs.access=unrestricted", "management.endpoint.health.show-details=always",
				"management.health.ojs.enabled=true", "ojs.cron.interval=1s" })
@AutoConfigureRestTestClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class RecurringJobsHttpTests {

	/** {@code ojs.cron.interval}. */
	private static final Duration INTERVAL = Duration.ofSeconds(1);

	/** Slack for a loaded machine on top of any bound derived from the interval. */
	private static final Duration TOLERANCE = Duration.ofSeconds(3);

	@Autowired
	private RestTestClient client;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private MeterRegistry meters;

	@Value("${ojs.jdbc.table-prefix}")
	private String tablePrefix;

	@Test
	@Order(1)
	void listsEveryRecurringJob() {
		this.client.get()
			.uri("/actuator/recurringjobs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.count").isEqualTo(2)
			.jsonPath("$.recurringJobs[0].name").isEqualTo(BLOCKED)
			.jsonPath("$.recurringJobs[0].cron").isEqualTo("@every 1s")
			.jsonPath("$.recurringJobs[1].name").isEqualTo(YEARLY)
			.jsonPath("$.recurringJobs[1].timezone").isEqualTo("Europe/Paris")
			.jsonPath("$.recurringJobs[1].application").isEqualTo("cron-http");
	}

	@Test
	@Order(1)
	void showsOneRecurringJobAndAnUnknownNameIsNotFound() {
		this.client.get()
			.uri("/actuator/recurringjobs/{name}", YEARLY)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.name").isEqualTo(YEARLY)
			.jsonPath("$.cron").isEqualTo("0 0 1 1 *")
			.jsonPath("$.timezone").isEqualTo("Europe/Paris")
			.jsonPath("$.type").isEqualTo("http.cron_yearly")
			.jsonPath("$.overlapPolicy").isEqualTo("skip")
			.jsonPath("$.enabled").isEqualTo(true)
			.jsonPath("$.paused").isEqualTo(false)
			.jsonPath("$.nextRunAt").isNotEmpty()
			.jsonPath("$.application").isEqualTo("cron-http")
			.jsonPath("$.description").isEqualTo("New year");
		this.client.get().uri("/actuator/recurringjobs/{name}", "http.none").exchange().expectStatus().isNotFound();
	}

	/** CRON-28: a paused recurring job has no next run; resumed, it has its next occurrence again. */
	@Test
	@Order(1)
	void pausesAndResumesARecurringJob() {
		Timestamp next = nextRunAt(YEARLY);
		assertThat(next).isNotNull();
		operate(YEARLY, "pause").isOk()
			.expectBody()
			.jsonPath("$.name").isEqualTo(YEARLY)
			.jsonPath("$.paused").isEqualTo(true)
			.jsonPath("$.nextRunAt").doesNotExist();
		assertThat(nextRunAt(YEARLY)).isNull();
		this.client.get()
			.uri("/actuator/recurringjobs/{name}", YEARLY)
			.exchange()
			.expectBody()
			.jsonPath("$.paused").isEqualTo(true);
		operate(YEARLY, "resume").isOk().expectBody().jsonPath("$.paused").isEqualTo(false);
		// the next first of January again
		assertThat(nextRunAt(YEARLY)).isEqualTo(next);
	}

	@Test
	@Order(1)
	void triggersARecurringJobNowWithoutChangingItsNextRun() {
		Timestamp next = nextRunAt(YEARLY);
		String jobId = operate(YEARLY, "trigger").isOk()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody()
			.get("jobId")
			.toString();
		assertThat(this.jdbc.queryForList("SELECT id FROM " + this.tablePrefix + "jobs WHERE type = 'http.cron_yearly'",
				Object.class))
			.extracting(Object::toString)
			.containsExactly(jobId);
		assertThat(this.jdbc.queryForObject(
				"SELECT last_job_id FROM " + this.tablePrefix + "schedules WHERE name = ?", String.class, YEARLY))
			.isEqualTo(jobId);
		assertThat(nextRunAt(YEARLY)).isEqualTo(next);
		this.client.get()
			.uri("/actuator/recurringjobs/{name}", YEARLY)
			.exchange()
			.expectBody()
			.jsonPath("$.lastJobId").isEqualTo(jobId);
	}

	@Test
	@Order(1)
	void anUnknownActionIsABadRequestAndAnUnknownRecurringJobIsNotFound() {
		operate(YEARLY, "drop").isBadRequest();
		assertThat(nextRunAt(YEARLY)).isNotNull();
		operate("http.none", "pause").isNotFound();
		operate("http.none", "trigger").isNotFound();
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "schedules WHERE name = ?",
				Integer.class, "http.none"))
			.isZero();
	}

	/**
	 * The first occurrence of {@value RecurringJobsHttpTestApplication#BLOCKED} enqueues a job that
	 * stays active, so that every later occurrence is skipped (overlap {@code skip}, CRON-19).
	 */
	@Test
	@Order(2)
	void triggeredAndSkippedOccurrencesAreCountedAndLatenessIsRecorded() {
		// CRON-30: within a few intervals of start-up the second occurrence is skipped
		await().atMost(INTERVAL.multipliedBy(3).plus(TOLERANCE)).until(() -> skipped() >= 1);
		double skipped = skipped();
		await().atMost(INTERVAL.multipliedBy(2).plus(TOLERANCE)).until(() -> skipped() > skipped);
		// CRON-29: one job, however many occurrences were skipped since
		assertThat(this.meters.get(RecurringJobMetricsListener.TRIGGERED).tags("name", BLOCKED).counter().count())
			.isEqualTo(1);
		Timer lateness = this.meters.get(RecurringJobMetricsListener.LATENESS).tags("name", BLOCKED).timer();
		assertThat(lateness.count()).isEqualTo(1);
		assertThat(lateness.max(TimeUnit.MILLISECONDS))
			.isBetween(0.0, (double) INTERVAL.plus(TOLERANCE).toMillis());
		assertThat(this.meters.find(RecurringJobMetricsListener.TRIGGERED).tags("name", YEARLY).counter())
			.as("an occurrence, not a trigger over the endpoint, counts")
			.isNull();
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=name:{name}&tag=reason:{reason}", RecurringJobMetricsListener.SKIPPED,
			BLOCKED,
					RecurringJobListener.Skipped.OVERLAP_SKIP)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].statistic").isEqualTo("COUNT")
			.jsonPath("$.measurements[0].value").value((Double value) -> assertThat(value).isGreaterThanOrEqualTo(2.0));
		this.client.get()
			.uri("/actuator/metrics/{name}?tag=name:{name}", RecurringJobMetricsListener.LATENESS, BLOCKED)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[?(@.statistic == 'COUNT')].value").isEqualTo(List.of(1.0));
	}

	@Test
	@Order(3)
	@DirtiesContext
	void healthIsUpWhileTheEvaluatorRunsAndDownFiveIntervalsAfterItStopped(@Autowired RecurringJobEvaluator evaluator,
			@Autowired OjsRecurringJobsLifecycle lifecycle) {
		await().atMost(INTERVAL.plus(TOLERANCE)).until(() -> evaluator.lastEvaluation() != null);
		this.client.get()
			.uri("/actuator/health/recurringJobs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status").isEqualTo("UP")
			.jsonPath("$.details.leader").isEqualTo(true)
			.jsonPath("$.details.leaseHolder").isEqualTo(evaluator.settings().nodeId())
			.jsonPath("$.details.lastEvaluation").isNotEmpty();
		lifecycle.stop();
		long stopped = System.nanoTime();
		Duration stale = INTERVAL.multipliedBy(5);
		await().atMost(stale.plus(TOLERANCE))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> health().getStatus().value() == 503);
		Duration untilDown = Duration.ofNanos(System.nanoTime() - stopped);
		// the last evaluation was at most an interval before the stop
		assertThat(untilDown).isGreaterThanOrEqualTo(stale.minus(INTERVAL).minusMillis(100));
		this.client.get()
			.uri("/actuator/health/recurringJobs")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.status").isEqualTo("DOWN")
			.jsonPath("$.details.leader").isEqualTo(false)
			.jsonPath("$.details.leaseHolder").isEqualTo("none")
			.jsonPath("$.details.sinceLastEvaluation")
			.value((String since) -> assertThat(Duration.parse(since)).isGreaterThan(stale));
	}

	private StatusAssertions operate(String name, String action) {
		return this.client.post()
			.uri("/actuator/recurringjobs/{name}", name)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("action", action))
			.exchange()
			.expectStatus();
	}

	private EntityExchangeResult<byte[]> health() {
		return this.client.get().uri("/actuator/health/recurringJobs").exchange().expectBody().returnResult();
	}

	private double skipped() {
		Counter counter = this.meters.find(RecurringJobMetricsListener.SKIPPED)
			.tags("name", BLOCKED, "reason", RecurringJobListener.Skipped.OVERLAP_SKIP)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private Timestamp nextRunAt(String name) {
		return this.jdbc.queryForObject("SELECT next_run_at FROM " + this.tablePrefix + "schedules WHERE name = ?",
				Timestamp.class, name);
	}

}

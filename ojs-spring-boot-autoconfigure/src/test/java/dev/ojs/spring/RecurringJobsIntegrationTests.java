package dev.ojs.spring;

import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.ojs.job.JobState;
import dev.ojs.recurring.RecurringJobListener;
import dev.ojs.recurring.RecurringJobOwnershipException;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.spring.actuate.RecurringJobMetricsListener;
import dev.ojs.spring.actuate.RecurringJobsEndpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Recurring jobs in a full application: annotated recurring jobs registered at start-up with
 * placeholders resolved, their jobs run with the handler's policy or the recurring job's override
 * and dead-letter like any job (ojs-cron.md §1.1), events and meters (CRON-29), the
 * {@code recurringjobs} endpoint and the runtime API. Subclasses choose the database.
 */
@SpringBootTest(classes = RecurringJobsTestApplication.class,
		properties = { "spring.application.name=cron-it", "it.zone=Europe/Berlin", "it.off.cron=0 2 * * *",
				"it.off.enabled=false", "management.endpoint.recurringjobs.access=unrestricted",
				"management.endpoints.web.exposure.include=recurringjobs" })
@DirtiesContext
abstract class RecurringJobsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Autowired
	private OjsRecurringJobs recurringJobs;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private RecurringJobsTestApplication.RecurringHandlers handlers;

	@Autowired
	private RecurringJobsEndpoint endpoint;

	@Autowired
	private RecurringJobStore recurringJobStore;

	@Autowired
	private MeterRegistry meterRegistry;

	@Autowired
	private HandlerDirectory handlerDirectory;

	@Test
	void annotatedRecurringJobsAreRegisteredAtStartUpWithTheirPlaceholdersResolved() {
		StoredRecurringJob failing = this.recurringJobs.find("it.failing").orElseThrow();
		assertThat(failing.definition().zone()).isEqualTo("Europe/Berlin");
		assertThat(failing.definition().type()).isEqualTo("it.cron_failing");
		assertThat(failing.definition().application()).isEqualTo("cron-it");
		assertThat(failing.definition().declared()).isTrue();
		StoredRecurringJob off = this.recurringJobs.find("it.off").orElseThrow();
		assertThat(off.definition().cron()).isEqualTo("0 2 * * *");
		assertThat(off.definition().enabled()).isFalse();
		// CRON-28
		assertThat(off.nextRunAt()).isNull();
	}

	@Test
	void anOccurrencesJobRunsWithItsHandlersPolicyAndDeadLetters() {
		String id = awaitFinishedJob("it.failing");
		JobInfo job = this.template.getJob(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.DISCARDED);
		assertThat(job.deadLetter()).isTrue();
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(this.handlers.runs.get(id)).hasValue(2);
		// CRON-20
		assertThat(new JsonMapper().readValue(job.metaJson(), Map.class)).containsEntry("cron_name", "it.failing");
	}

	@Test
	void theRecurringJobsRetryOverrideIsTheJobsOwn() {
		String id = awaitFinishedJob("it.overridden");
		JobInfo job = this.template.getJob(id).orElseThrow();
		assertThat(job.attempt()).isEqualTo(3);
		assertThat(job.deadLetter()).as("on_exhaustion from the handler").isTrue();
	}

	@Test
	void triggeredEventsAndMetersAreRecorded() {
		await().atMost(TIMEOUT).until(() -> !this.handlers.events.isEmpty());
		assertThat(this.handlers.events.get(0)).isInstanceOf(RecurringJobListener.Triggered.class);
		await().atMost(TIMEOUT)
			.until(() -> this.meterRegistry.find(RecurringJobMetricsListener.TRIGGERED).counters().stream()
				.mapToDouble((counter) -> counter.count()).sum() > 0);
		assertThat(this.meterRegistry.find(RecurringJobMetricsListener.LATENESS).timer()).isNotNull();
	}

	@Test
	void theEndpointListsShowsAndOperatesRecurringJobs() {
		RecurringJobsEndpoint.RecurringJobsDescriptor all = this.endpoint.recurringJobs();
		assertThat(all.recurringJobs()).extracting(RecurringJobsEndpoint.RecurringJobDescriptor::name)
			.contains("it.failing", "it.off", "it.overridden");
		RecurringJobsEndpoint.RecurringJobDescriptor off = this.endpoint.recurringJob("it.off");
		assertThat(off.timezone()).isEqualTo("Europe/Berlin");
		assertThat(off.overlapPolicy()).isEqualTo("skip");
		assertThat(off.application()).isEqualTo("cron-it");
		assertThat(this.endpoint.recurringJob("it.none")).isNull();
		this.recurringJobs.register(RecurringJob.of("it.runtime", "0 3 * * *", "it.cron_off").zone("Asia/Tokyo"));
		RecurringJobsEndpoint.RecurringJobDescriptor paused = (RecurringJobsEndpoint.RecurringJobDescriptor) this.endpoint
			.operate("it.runtime", "pause");
		assertThat(paused.paused()).isTrue();
		assertThat(paused.nextRunAt()).isNull();
		RecurringJobsEndpoint.RecurringJobDescriptor resumed = (RecurringJobsEndpoint.RecurringJobDescriptor) this.endpoint
			.operate("it.runtime", "resume");
		assertThat(resumed.nextRunAt()).isNotNull();
		RecurringJobsEndpoint.TriggeredDescriptor triggered = (RecurringJobsEndpoint.TriggeredDescriptor) this.endpoint
			.operate("it.runtime", "trigger");
		assertThat(this.template.getJob(triggered.jobId())).isPresent();
		assertThat(this.endpoint.recurringJob("it.runtime").lastJobId()).isEqualTo(triggered.jobId());
		assertThat(this.recurringJobs.remove("it.runtime")).isTrue();
		assertThat(this.endpoint.operate("it.runtime", "pause")).isNull();
	}

	@Test
	void invalidRegistrationsAreRejectedNamingTheField() {
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.recurringJobs.register(RecurringJob.of("x", "0 25 * * *", "it.cron_off")))
			.withMessageStartingWith("Invalid cron.hour")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("cron.hour"));
		assertThatExceptionOfType(OjsValidationException.class)
			.isThrownBy(() -> this.recurringJobs.register(RecurringJob.of("x", "@daily", "it.cron_off").zone("EST")))
			.withMessageStartingWith("Invalid timezone")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("timezone"));
	}

	@Test
	void anotherApplicationCannotChangeThisApplicationsRecurringJobs() {
		OjsRecurringJobs other = new OjsRecurringJobs(this.recurringJobStore, this.handlerDirectory, new JsonMapper(),
				"other-app");
		assertThatExceptionOfType(RecurringJobOwnershipException.class).isThrownBy(() -> other.pause("it.failing"));
		assertThat(other.list()).extracting(StoredRecurringJob::name).contains("it.failing");
	}

	private String awaitFinishedJob(String name) {
		return await().atMost(TIMEOUT).until(() -> {
			StoredRecurringJob stored = this.recurringJobs.find(name).orElseThrow();
			String id = stored.lastJobId();
			if (id == null) {
				return null;
			}
			JobInfo job = this.template.getJob(id).orElse(null);
			return (job != null && job.state().isTerminal()) ? id : null;
		}, (id) -> id != null);
	}

}

package dev.ojs.spring;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;


import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A producer without the handler and a worker with it, two applications on one job table
 * with different {@code ojs.retry.*}: a job lands in its handler's queue and runs with its
 * handler's policy (spec §8.1: spec defaults &lt; the worker's {@code ojs.retry.*} &lt;
 * {@code @OjsJob} &lt; the job's own fields), wherever it was enqueued. Subclasses choose the
 * database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
abstract class PolicyFollowsHandlerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final String prefix = "p" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";

	private ConfigurableApplicationContext worker;

	private ConfigurableApplicationContext producer;

	private OjsTemplate template;

	protected abstract TestDatabases.Kind kind();

	@BeforeAll
	void startBoth() {
		// the worker first: it publishes its handlers at start-up
		this.worker = start(WorkerApplication.class, "ojs.retry.max-attempts=5", "ojs.retry.initial-interval=PT0.01S",
				"ojs.retry.max-interval=PT0.02S", "ojs.retry.jitter=false", "ojs.worker.poll-interval=50ms",
				"spring.application.name=routing-worker");
		this.producer = start(ProducerApplication.class, "ojs.worker.enabled=false", "ojs.retry.max-attempts=9",
				"ojs.retry.on-exhaustion=dead_letter", "ojs.retry.initial-interval=PT2S", "ojs.retry.max-interval=PT10S");
		this.template = this.producer.getBean(OjsTemplate.class);
	}

	@AfterAll
	void stopBoth() {
		if (this.producer != null) {
			this.producer.close();
		}
		if (this.worker != null) {
			this.worker.close();
		}
		JdbcSchema.drop(TestDatabases.database(kind()).dataSource(), new JdbcStoreSettings(this.prefix));
	}

	@Test
	void aJobEnqueuedWithoutItsHandlerLandsInTheHandlersQueueWithItsPriority() {
		String id = this.template.enqueue("routed.ok", "x");
		JobInfo job = awaitState(id, JobState.COMPLETED);
		assertThat(job.queue()).isEqualTo("routed");
		assertThat(job.priority()).isEqualTo(3);
	}

	@Test
	void itRunsWithTheHandlersPolicyNotTheProducersDefaults() {
		// @OjsJob(maxAttempts = 4, DEAD_LETTER) beats the producer's max-attempts 9 and the worker's 5
		String id = this.template.enqueue("routed.flaky", "a");
		JobInfo job = awaitState(id, JobState.DISCARDED);
		assertThat(job.attempt()).isEqualTo(4);
		assertThat(job.deadLetter()).isTrue();
		assertThat(RoutedJobs.runs.get(id)).hasValue(4);
	}

	@Test
	void aHandlerWithoutItsOwnSettingsRunsWithTheWorkersDefaults() {
		// the worker's ojs.retry.max-attempts=5 and on_exhaustion discard (spec), not the producer's 9 / dead_letter
		String id = this.template.enqueue("routed.inherits", "b");
		JobInfo job = awaitState(id, JobState.DISCARDED);
		assertThat(job.attempt()).isEqualTo(5);
		assertThat(job.deadLetter()).isFalse();
		assertThat(RoutedJobs.runs.get(id)).hasValue(5);
	}

	@Test
	void theJobsOwnFieldsWinAndEachFieldSaysWhereItCameFrom() {
		String id = this.template.enqueue("routed.flaky", List.of("c"),
				JobOptions.builder().retry("{\"max_attempts\": 2}").build());
		JobInfo job = awaitState(id, JobState.DISCARDED);
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(job.deadLetter()).as("on_exhaustion from the handler").isTrue();
		assertThat(job.maxAttempts()).isEqualTo(2);
		assertThat(job.retryPolicy().initialInterval()).isEqualTo(Duration.ofMillis(10));
		assertThat(job.retryPolicySources()).containsEntry("max_attempts", RetryPolicyLayers.JOB)
			.containsEntry("on_exhaustion", RetryPolicyLayers.HANDLER)
			.containsEntry("initial_interval", RetryPolicyLayers.APPLICATION)
			.containsEntry("backoff_coefficient", RetryPolicyLayers.SPEC);
	}

	@Test
	void invalidFieldsAreRejectedAtEnqueueAndNothingIsStored() {
		dev.ojs.job.JobStore store = this.producer.getBean(dev.ojs.job.JobStore.class);
		long before = total(store);
		JobOptions invalid = JobOptions.builder().retry("{\"backoff_coefficient\": 0.5}").build();
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueue("routed.ok", List.of("d"), invalid))
			.withMessageContaining("backoff_coefficient");
		// valid over the spec defaults, but not over the handler's max_interval of 20 ms (RET-16)
		JobOptions clashing = JobOptions.builder().retry("{\"initial_interval\": \"PT1S\"}").build();
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueue("routed.ok", List.of("e"), clashing))
			.withMessageContaining("initial_interval");
		assertThat(total(store)).isEqualTo(before);
	}

	private static long total(dev.ojs.job.JobStore store) {
		return store.countByQueueAndState()
			.values()
			.stream()
			.flatMap((states) -> states.values().stream())
			.mapToLong(Long::longValue)
			.sum();
	}

	@Test
	void aTypeNoNodePublishedGoesToTheDefaultQueueWithOneWarning(CapturedOutput output) {
		String first = this.template.enqueue("nobody.handles");
		this.template.enqueue("nobody.handles");
		assertThat(this.template.getJob(first).orElseThrow().queue()).isEqualTo("default");
		assertThat(output.getAll().split("No worker has published a handler for job type 'nobody.handles'", -1))
			.hasSize(2);
	}

	@Test
	void theProducerSeesWhatTheWorkerPublished() {
		HandlerDirectory directory = this.producer.getBean(HandlerDirectory.class);
		assertThat(directory.published()).extracting(dev.ojs.job.PublishedHandler::type)
			.contains("routed.ok", "routed.flaky", "routed.inherits");
		assertThat(directory.route("routed.flaky").source()).isEqualTo("published");
		assertThat(directory.published()).filteredOn((handler) -> handler.type().equals("routed.ok"))
			.singleElement()
			.satisfies((handler) -> assertThat(handler.application()).isEqualTo("routing-worker"));
	}

	private JobInfo awaitState(String id, JobState state) {
		await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.template.getJob(id).map(JobInfo::state).orElse(null) == state);
		return this.template.getJob(id).orElseThrow();
	}

	private ConfigurableApplicationContext start(Class<?> application, String... properties) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.properties("test.database=" + kind().name(), "ojs.jdbc.table-prefix=" + this.prefix,
					"ojs.jdbc.initialize-schema=always")
			.properties(properties)
			.run();
	}

	/** A worker node with the handlers. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TestDatabaseConfiguration.SharedDataSource.class)
	static class WorkerApplication {


		@Bean
		RoutedJobs routedJobs() {
			return new RoutedJobs();
		}

	}

	/** A node that only enqueues, without the handlers. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TestDatabaseConfiguration.SharedDataSource.class)
	static class ProducerApplication {


	}

	static class RoutedJobs {

		static final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		@OjsJob(type = "routed.ok", queue = "routed", priority = 3)
		void ok(String value) {
		}

		@OjsJob(type = "routed.flaky", queue = "routed", maxAttempts = 4, onExhaustion = OjsJob.Exhaustion.DEAD_LETTER)
		void flaky(String value, JobContext context) {
			runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
			throw new IllegalStateException("always fails");
		}

		@OjsJob(type = "routed.inherits", queue = "routed")
		void inherits(String value, JobContext context) {
			runs.computeIfAbsent(context.id(), (id) -> new AtomicInteger()).incrementAndGet();
			throw new IllegalStateException("always fails");
		}

	}

}

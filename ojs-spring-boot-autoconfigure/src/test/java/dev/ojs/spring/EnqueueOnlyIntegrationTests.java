package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.autoconfigure.OjsProperties;
import dev.ojs.worker.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link OjsTemplate} on an enqueue-only node ({@code ojs.worker.enabled=false}), so jobs
 * stay as enqueued: the precedence chain, defaults, serialization, scheduling, unique keys,
 * cancelling and transactional enqueue. Subclasses choose the database.
 */
@SpringBootTest(classes = IntegrationTestApplication.class, properties = "ojs.worker.enabled=false")
@DirtiesContext
abstract class EnqueueOnlyIntegrationTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private JobStore store;

	@Autowired
	private OjsProperties properties;

	@Autowired
	private PlatformTransactionManager transactionManager;

	@Test
	void enqueueOnlyNodeHasNoWorkerAndJobsStayAvailable() {
		assertThat(this.context.getBeansOfType(Worker.class)).isEmpty();
		assertThat(this.context.getBeansOfType(OjsWorker.class)).isEmpty();
		String id = this.template.enqueue("it.ok", "stays");
		JobInfo job = this.template.getJob(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(job.attempt()).isZero();
		assertThat(job.id()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
	}

	@Test
	void precedenceSpecDefaultsThenPropertiesThenAnnotationThenEnqueue() {
		// ojs.retry.*: initial 10ms, max_interval 50ms, jitter false
		// @OjsJob: max_attempts 6, max_interval 1m, on_exhaustion dead_letter
		// enqueue: max_attempts 8
		String id = this.template.enqueue("it.precedence", List.of("x"),
				JobOptions.builder().retry("{\"max_attempts\": 8}").build());
		RetryPolicy stored = this.template.getJob(id).orElseThrow().retryPolicy();
		assertThat(stored).isEqualTo(RetryPolicy.builder().maxAttempts(8).initialInterval(Duration.ofMillis(10))
			.backoffCoefficient(2.0).maxInterval(Duration.ofMinutes(1)).jitter(false).nonRetryableErrors(List.of())
			.onExhaustion(OnExhaustion.DEAD_LETTER).backoffStrategy(BackoffStrategy.EXPONENTIAL).build());
		assertThat(this.template.getJob(id).orElseThrow().maxAttempts()).isEqualTo(8);

		JobInfo handlerOnly = this.template.getJob(this.template.enqueue("it.precedence", "y")).orElseThrow();
		assertThat(handlerOnly.retryPolicy().maxAttempts()).isEqualTo(6);
		assertThat(handlerOnly.maxAttempts()).isEqualTo(6);
		assertThat(handlerOnly.retryPolicy().maxInterval()).isEqualTo(Duration.ofMinutes(1));
		assertThat(handlerOnly.retryPolicy().initialInterval()).isEqualTo(Duration.ofMillis(10));

		RetryPolicy typed = RetryPolicy.builder().backoffCoefficient(3.0).onExhaustion(OnExhaustion.DISCARD).build();
		JobInfo perEnqueue = this.template
			.getJob(this.template.enqueue("it.precedence", List.of("z"), JobOptions.builder().retry(typed).build()))
			.orElseThrow();
		assertThat(perEnqueue.retryPolicy().backoffCoefficient()).isEqualTo(3.0);
		assertThat(perEnqueue.retryPolicy().onExhaustion()).isEqualTo(OnExhaustion.DISCARD);
		assertThat(perEnqueue.retryPolicy().maxAttempts()).isEqualTo(6);

		JobInfo unknown = this.template.getJob(this.template.enqueue("elsewhere.handled", 1)).orElseThrow();
		assertThat(unknown.retryPolicy()).isEqualTo(this.properties.defaultRetryPolicy());
		assertThat(unknown.retryPolicy().maxAttempts()).isEqualTo(3);
		assertThat(unknown.retryPolicy().maxInterval()).isEqualTo(Duration.ofMillis(50));
		assertThat(unknown.queue()).isEqualTo("default");
		assertThat(unknown.priority()).isZero();
	}

	@Test
	void invalidPerEnqueuePolicyThrowsAndWritesNothing() {
		long before = count();
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueue("it.precedence", List.of("x"),
					JobOptions.builder().retry("{\"backoff_coefficient\": 0.5}").build()))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("backoff_coefficient"));
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueue("it.precedence", List.of("x"),
					JobOptions.builder().retry("{\"initial_interval\": \"PT2M\"}").build()))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("max_interval"));
		assertThatExceptionOfType(RetryPolicyValidationException.class)
			.isThrownBy(() -> this.template.enqueueAll("it.ok", List.of(List.of("a"), List.of("b")),
					JobOptions.builder().retry("{not json").build()));
		assertThat(count()).isEqualTo(before);
	}

	@Test
	void queueAndPriorityComeFromOptionsElseTheHandler() {
		JobInfo fromHandler = this.template.getJob(this.template.enqueue("it.precedence", "a")).orElseThrow();
		assertThat(fromHandler.queue()).isEqualTo("precedence");
		assertThat(fromHandler.priority()).isEqualTo(7);
		JobInfo fromOptions = this.template
			.getJob(this.template.enqueue("it.precedence", List.of("b"),
					JobOptions.builder().queue("urgent").priority(-3).build()))
			.orElseThrow();
		assertThat(fromOptions.queue()).isEqualTo("urgent");
		assertThat(fromOptions.priority()).isEqualTo(-3);
	}

	@Test
	void argumentsAndMetaAreJson() {
		Instant at = Instant.parse("2024-05-01T10:15:30.123456Z");
		String id = this.template.enqueue("it.bind",
				List.of(new IntegrationJobs.Customer("a@b.c", 30), Map.of("city", "Oslo"), List.of(), Map.of(), at,
						LocalDate.of(2024, 5, 1), Duration.ofSeconds(90), 1L, true),
				JobOptions.builder().meta("tenant", "acme").meta("trace", 42).build());
		JobInfo job = this.template.getJob(id).orElseThrow();
		JsonMapper json = new JsonMapper();
		assertThat(json.readTree(job.argsJson())).isEqualTo(json.readTree("""
				[{"email": "a@b.c", "age": 30}, {"city": "Oslo"}, [], {}, "2024-05-01T10:15:30.123456Z",
				"2024-05-01", "PT1M30S", 1, true]"""));
		assertThat(json.readTree(job.metaJson())).isEqualTo(json.readTree("{\"tenant\": \"acme\", \"trace\": 42}"));
	}

	@Test
	void enqueueAllStoresEveryJobInOrder() {
		List<String> ids = this.template.enqueueAll("it.ok", List.of(List.of("a"), List.of("b"), List.of("c")),
				JobOptions.builder().queue("batch").build());
		assertThat(ids).hasSize(3).doesNotHaveDuplicates();
		assertThat(ids).map((id) -> new JsonMapper().readTree(this.template.getJob(id).orElseThrow().argsJson()).get(0)
			.asString()).containsExactly("a", "b", "c");
		assertThat(ids).map((id) -> this.template.getJob(id).orElseThrow().queue()).containsOnly("batch");
		assertThat(this.template.enqueueAll("it.ok", List.of(), JobOptions.none())).isEmpty();
	}

	@Test
	void delayAndRunAtSchedule() {
		Instant before = Instant.now();
		JobInfo delayed = this.template
			.getJob(this.template.enqueue("it.ok", List.of("later"),
					JobOptions.builder().delay(Duration.ofHours(1)).build()))
			.orElseThrow();
		assertThat(delayed.state()).isEqualTo(JobState.SCHEDULED);
		assertThat(delayed.scheduledAt()).isCloseTo(before.plus(Duration.ofHours(1)), within(Duration.ofSeconds(30)));
		Instant runAt = Instant.parse("2099-01-01T00:00:00Z");
		JobInfo scheduled = this.template
			.getJob(this.template.enqueue("it.ok", List.of("much later"), JobOptions.builder().runAt(runAt).build()))
			.orElseThrow();
		assertThat(scheduled.scheduledAt()).isEqualTo(runAt);
	}

	@Test
	void uniqueKeyReturnsTheLiveJob() {
		JobOptions options = JobOptions.builder().uniqueKey("report-2024-05").build();
		String first = this.template.enqueue("it.ok", List.of("a"), options);
		String second = this.template.enqueue("it.ok", List.of("b"), options);
		assertThat(second).isEqualTo(first);
		List<String> batch = this.template.enqueueAll("it.ok", List.of(List.of("c"), List.of("d")),
				JobOptions.builder().uniqueKey("report-2024-06").build());
		assertThat(batch).hasSize(2).containsOnly(batch.get(0));
	}

	@Test
	void cancelBeforeItRuns() {
		String id = this.template.enqueue("it.ok", "cancel me");
		assertThat(this.template.cancel(id)).isTrue();
		assertThat(this.template.getJob(id).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
		assertThat(this.template.cancel(id)).isFalse();
		assertThat(this.template.getJob("0190f5f0-0000-7000-8000-000000000000")).isEmpty();
	}

	@Test
	void enqueueJoinsTheCallersTransaction() {
		TransactionTemplate transaction = new TransactionTemplate(this.transactionManager);
		String rolledBack = transaction.execute((status) -> {
			String id = this.template.enqueue("it.ok", "rolled back");
			assertThat(this.template.getJob(id)).isPresent();
			status.setRollbackOnly();
			return id;
		});
		assertThat(this.template.getJob(rolledBack)).isEmpty();
		String committed = transaction.execute((status) -> this.template.enqueue("it.ok", "committed"));
		assertThat(this.template.getJob(committed)).isPresent();
	}

	private long count() {
		return this.store.countByQueueAndState().values().stream()
			.flatMap((states) -> states.values().stream())
			.mapToLong(Long::longValue)
			.sum();
	}

}

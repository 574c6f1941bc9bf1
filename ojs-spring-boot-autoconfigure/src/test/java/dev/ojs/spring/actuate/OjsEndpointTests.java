package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.QueueState;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsNames;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.spring.actuate.OjsEndpoint.OjsDescriptor;
import dev.ojs.worker.WorkerStatus;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * Tests for {@link OjsEndpoint}.
 */
class OjsEndpointTests {

	private final JobStore store = mock(JobStore.class);

	@BeforeEach
	void noDeadLetters() {
		given(this.store.deadLetterStats()).willReturn(new DeadLetterStats(0, Map.of(), Map.of(), null, null));
	}

	@Test
	void countsEveryStateOfEveryQueue() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("mail", Map.of(JobState.AVAILABLE, 2L),
				"default", Map.of(JobState.COMPLETED, 5L, JobState.DISCARDED, 1L)));
		OjsDescriptor ojs = endpoint(List.of(), null).ojs();
		assertThat(ojs.queues()).containsOnlyKeys("default", "mail");
		assertThat(ojs.queues().keySet()).containsExactly("default", "mail");
		assertThat(ojs.queues().get("default")).containsExactly(Map.entry("scheduled", 0L),
				Map.entry("pending", 0L), Map.entry("available", 0L), Map.entry("active", 0L), Map.entry("completed", 5L),
				Map.entry("retryable", 0L), Map.entry("discarded", 1L), Map.entry("cancelled", 0L),
				Map.entry("dead_letter", 0L));
		assertThat(ojs.queues().get("mail")).containsEntry("available", 2L).containsEntry("completed", 0L);
	}

	/** Issue 27: dead letters count as {@code dead_letter}, as on the dashboard and the Admin API, not as {@code discarded}. */
	@Test
	void countsDeadLettersApartFromOtherDiscardedJobs() {
		given(this.store.countByQueueAndState())
			.willReturn(Map.of("mail", Map.of(JobState.DISCARDED, 3L, JobState.COMPLETED, 1L)));
		given(this.store.deadLetterStats())
			.willReturn(new DeadLetterStats(2, Map.of("mail", 2L), Map.of("smtp", 2L), null, null));
		OjsDescriptor ojs = endpoint(List.of(), null).ojs();
		assertThat(ojs.queues().get("mail")).containsEntry("discarded", 1L)
			.containsEntry("dead_letter", 2L)
			.containsEntry("completed", 1L);
	}

	@Test
	void showsPausedQueuesAndCountsAPausedQueueWithoutJobs() {
		Instant pausedAt = Instant.parse("2026-02-13T12:00:00Z");
		given(this.store.countByQueueAndState()).willReturn(Map.of("mail", Map.of(JobState.AVAILABLE, 2L)));
		given(this.store.queueStates()).willReturn(List.of(new QueueState("idle", true, pausedAt),
				new QueueState("mail", true, pausedAt.plusSeconds(1)), QueueState.active("resumed")));
		OjsDescriptor ojs = endpoint(List.of(), null).ojs();
		assertThat(ojs.queues().keySet()).containsExactly("idle", "mail", "resumed");
		assertThat(ojs.queues().get("idle")).hasSize(JobState.values().length + 1).allSatisfy((state, count) -> assertThat(count).isZero());
		assertThat(ojs.queues().get("mail")).containsEntry("available", 2L);
		assertThat(ojs.pausedQueues()).containsExactly(Map.entry("idle", pausedAt),
				Map.entry("mail", pausedAt.plusSeconds(1)));
	}

	@Test
	void pausesAndResumesAQueueAdminApi63And64() {
		Instant pausedAt = Instant.parse("2026-02-13T12:00:00Z");
		given(this.store.pauseQueue("mail")).willReturn(new QueueState("mail", true, pausedAt));
		given(this.store.resumeQueue("mail")).willReturn(QueueState.active("mail"));
		OjsEndpoint endpoint = endpoint(List.of(), null);
		assertThat(endpoint.queue("queues", "mail", "pause"))
			.isEqualTo(new OjsEndpoint.QueueStateDescriptor("mail", true, pausedAt));
		assertThat(endpoint.queue("queues", "mail", "resume"))
			.isEqualTo(new OjsEndpoint.QueueStateDescriptor("mail", false, null));
		verify(this.store).pauseQueue("mail");
		verify(this.store).resumeQueue("mail");
	}

	@Test
	void otherQueuePathsAndInvalidNamesAreBadRequests() {
		OjsEndpoint endpoint = endpoint(List.of(), null);
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint.queue("queues", "mail", "drain"))
			.withMessageContaining("/actuator/ojs/queues/{queue}/pause");
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint.queue("handlers", "mail", "pause"));
		// the queue-name rule of every edge, with its message
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint.queue("queues", "q".repeat(256), "pause"))
			.withMessage(OjsNames.QUEUE_MESSAGE);
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint.queue("queues", "Mail", "resume"))
			.withMessage(OjsNames.QUEUE_MESSAGE);
		verify(this.store, never()).pauseQueue(anyString());
		verify(this.store, never()).resumeQueue(anyString());
	}

	@Test
	void showsHandlersWithTheirEffectivePolicyAsTheSpecsJsonObject() {
		given(this.store.countByQueueAndState()).willReturn(Map.of());
		RetryPolicy handlerPolicy = RetryPolicy.builder()
			.maxAttempts(5)
			.onExhaustion(OnExhaustion.DEAD_LETTER)
			.build();
		RegisteredJob job = new RegisteredJob("payment.charge", "payments", 10, 2, 0, 0, Duration.ofMinutes(1),
				handlerPolicy, handlerPolicy.effective(), "paymentJobs", "PaymentJobs#charge(String, long)");
		OjsDescriptor ojs = endpoint(List.of(job), null).ojs();
		assertThat(ojs.handlers()).singleElement().satisfies((handler) -> {
			assertThat(handler.type()).isEqualTo("payment.charge");
			assertThat(handler.queue()).isEqualTo("payments");
			assertThat(handler.priority()).isEqualTo(10);
			assertThat(handler.concurrency()).isEqualTo(2);
			assertThat(handler.visibilityTimeout()).isEqualTo("PT1M");
			assertThat(handler.bean()).isEqualTo("paymentJobs");
			assertThat(handler.method()).isEqualTo("PaymentJobs#charge(String, long)");
			assertThat(handler.retryPolicy()).asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("max_attempts", 5)
				.containsEntry("on_exhaustion", "dead_letter")
				.containsEntry("initial_interval", "PT1S")
				.containsKeys("backoff_coefficient", "max_interval", "jitter", "non_retryable_errors",
						"backoff_strategy");
		});
	}

	@Test
	void showsTheWorkerStatus() {
		given(this.store.countByQueueAndState()).willReturn(Map.of());
		WorkerStatus status = new WorkerStatus("node-1", true, Map.of("default", 4), Map.of("default", 1),
				List.of("a", "b"));
		OjsDescriptor ojs = endpoint(List.of(), status).ojs();
		assertThat(ojs.worker().mode()).isEqualTo(OjsEndpoint.MODE_WORKER);
		assertThat(ojs.worker().nodeId()).isEqualTo("node-1");
		assertThat(ojs.worker().running()).isTrue();
		assertThat(ojs.worker().queues()).containsEntry("default", 4);
		assertThat(ojs.worker().activeByQueue()).containsEntry("default", 1);
		assertThat(ojs.worker().types()).containsExactly("a", "b");
	}

	@Test
	void aNodeWithoutWorkerIsEnqueueOnly() {
		given(this.store.countByQueueAndState()).willReturn(Map.of());
		OjsDescriptor ojs = endpoint(List.of(), null).ojs();
		assertThat(ojs.worker().mode()).isEqualTo(OjsEndpoint.MODE_ENQUEUE_ONLY);
		assertThat(ojs.worker().nodeId()).isNull();
		assertThat(ojs.worker().running()).isNull();
	}

	private OjsEndpoint endpoint(List<RegisteredJob> jobs, WorkerStatus status) {
		OjsJobRegistry registry = new OjsJobRegistry() {

			@Override
			public List<RegisteredJob> jobs() {
				return jobs;
			}

			@Override
			public Optional<RegisteredJob> find(String type) {
				return jobs.stream().filter((job) -> job.type().equals(type)).findFirst();
			}

		};
		return new OjsEndpoint(new OjsQueues(this.store), registry, () -> status);
	}

}

package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.QueueState;
import dev.ojs.spring.OjsQueues;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * Tests for {@link QueueDepthMetrics}.
 */
class QueueDepthMetricsTests {

	private final JobStore store = mock(JobStore.class);

	{
		given(this.store.deadLetterStats()).willReturn(new DeadLetterStats(0, Map.of(), Map.of(), null, null));
	}

	private final AtomicLong nanoTime = new AtomicLong();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final QueueDepthMetrics metrics = new QueueDepthMetrics(new OjsQueues(this.store), Duration.ofSeconds(5),
			this.nanoTime::get);

	@Test
	void bindingRegistersAGaugePerStateOfEveryQueueThatHasJobs() {
		given(this.store.countByQueueAndState())
			.willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 3L, JobState.RETRYABLE, 2L), "mail",
					Map.of(JobState.COMPLETED, 7L)));
		this.metrics.bindTo(this.registry);
		assertThat(this.registry.find(QueueDepthMetrics.DEPTH).gauges()).hasSize(2 * (JobState.values().length + 1));
		assertThat(gauge("default", JobState.AVAILABLE)).isEqualTo(3);
		assertThat(gauge("default", JobState.RETRYABLE)).isEqualTo(2);
		assertThat(gauge("default", JobState.ACTIVE)).isZero();
		assertThat(gauge("mail", JobState.COMPLETED)).isEqualTo(7);
	}

	/** Issue 27: dead letters have their own state tag, as on /actuator/ojs, and are not counted as discarded. */
	@Test
	void deadLettersAreTheirOwnStateNotDiscarded() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.DISCARDED, 5L)));
		given(this.store.deadLetterStats())
			.willReturn(new DeadLetterStats(2, Map.of("default", 2L), Map.of(), null, null));
		this.metrics.bindTo(this.registry);
		assertThat(gauge("default", JobState.DISCARDED)).isEqualTo(3);
		assertThat(this.registry.get(QueueDepthMetrics.DEPTH).tags("queue", "default", "state", "dead_letter")
			.gauge()
			.value()).isEqualTo(2);
	}

	@Test
	void readsWithinTheRefreshIntervalDoNotQueryTheStore() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 1L)));
		this.metrics.bindTo(this.registry);
		for (int i = 0; i < 100; i++) {
			this.registry.find(QueueDepthMetrics.DEPTH).gauges().forEach(Gauge::value);
		}
		verify(this.store, times(1)).countByQueueAndState();
		this.nanoTime.addAndGet(Duration.ofSeconds(4).toNanos());
		gauge("default", JobState.AVAILABLE);
		verify(this.store, times(1)).countByQueueAndState();
		this.nanoTime.addAndGet(Duration.ofSeconds(1).toNanos());
		given(this.store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 9L)));
		assertThat(gauge("default", JobState.AVAILABLE)).isEqualTo(9);
		assertThat(gauge("default", JobState.SCHEDULED)).isZero();
		verify(this.store, times(2)).countByQueueAndState();
	}

	@Test
	void aQueueFoundByALaterQueryGetsGauges() {
		given(this.store.countByQueueAndState()).willReturn(Map.of());
		this.metrics.bindTo(this.registry);
		assertThat(this.registry.find(QueueDepthMetrics.DEPTH).gauges()).isEmpty();
		this.nanoTime.addAndGet(Duration.ofSeconds(5).toNanos());
		given(this.store.countByQueueAndState()).willReturn(Map.of("late", Map.of(JobState.SCHEDULED, 4L)));
		assertThat(this.metrics.depth("late", JobState.SCHEDULED)).isEqualTo(4);
		assertThat(gauge("late", JobState.SCHEDULED)).isEqualTo(4);
	}

	@Test
	void aFailedQueryKeepsThePreviousCountsUntilTheNextInterval() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 5L)));
		this.metrics.bindTo(this.registry);
		this.nanoTime.addAndGet(Duration.ofSeconds(5).toNanos());
		given(this.store.countByQueueAndState()).willThrow(new IllegalStateException("table missing"));
		assertThat(gauge("default", JobState.AVAILABLE)).isEqualTo(5);
		assertThat(gauge("default", JobState.AVAILABLE)).isEqualTo(5);
		verify(this.store, times(2)).countByQueueAndState();
	}

	@Test
	void aFailedFirstQueryDoesNotFailBinding() {
		given(this.store.countByQueueAndState()).willThrow(new IllegalStateException("database down"));
		this.metrics.bindTo(this.registry);
		this.metrics.track("default");
		assertThat(gauge("default", JobState.AVAILABLE)).isZero();
	}

	@Test
	void trackedQueuesGetGaugesOnEveryBoundRegistry() {
		given(this.store.countByQueueAndState()).willReturn(Map.of());
		SimpleMeterRegistry other = new SimpleMeterRegistry();
		this.metrics.bindTo(this.registry);
		this.metrics.bindTo(other);
		this.metrics.track("mail");
		this.metrics.track("mail");
		assertThat(this.registry.find(QueueDepthMetrics.DEPTH).gauges()).hasSize(JobState.values().length + 1);
		assertThat(other.find(QueueDepthMetrics.DEPTH).gauges()).hasSize(JobState.values().length + 1);
	}

	@Test
	void pausedQueuesReadOneAndGetGaugesWithoutJobs() {
		given(this.store.countByQueueAndState()).willReturn(Map.of("default", Map.of(JobState.AVAILABLE, 1L)));
		given(this.store.queueStates()).willReturn(List.of(new QueueState("idle", true, Instant.now())));
		this.metrics.bindTo(this.registry);
		// ojs-queue-config.md §5.1: a paused queue without jobs shows too
		assertThat(paused("idle")).isOne();
		assertThat(gauge("idle", JobState.AVAILABLE)).isZero();
		assertThat(paused("default")).isZero();
		this.nanoTime.addAndGet(Duration.ofSeconds(5).toNanos());
		given(this.store.queueStates()).willReturn(List.of(QueueState.active("idle"),
				new QueueState("default", true, Instant.now())));
		assertThat(paused("idle")).isZero();
		assertThat(paused("default")).isOne();
		verify(this.store, times(2)).queueStates();
	}

	private double paused(String queue) {
		return this.registry.get(QueueDepthMetrics.PAUSED).tags("queue", queue).gauge().value();
	}

	private double gauge(String queue, JobState state) {
		return this.registry.get(QueueDepthMetrics.DEPTH).tags("queue", queue, "state", state.value()).gauge().value();
	}

}

package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.JobError;
import dev.ojs.spring.OjsQueues;
import dev.ojs.testsupport.StoredJobs;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link JobMetricsListener}.
 */
class JobMetricsListenerTests {

	private static final JobError ERROR = JobError.of("external.timeout", "timed out");

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final JobMetricsListener listener = new JobMetricsListener(this.registry, null);

	@Test
	void completedCountsAndTimesTheHandler() {
		this.listener.completed(job("email.send", "mail"), Duration.ofMillis(40));
		assertThat(count(JobMetricsListener.COMPLETED, "email.send", "mail")).isEqualTo(1);
		assertThat(count(JobMetricsListener.FAILED, "email.send", "mail")).isZero();
		Timer timer = duration("email.send", "mail", "completed");
		assertThat(timer.count()).isEqualTo(1);
		assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(40);
	}

	@Test
	void retryingCountsAFailedAttemptAndRecordsTheScheduledDelay() {
		Job job = job("report.build", "default");
		this.listener.retrying(job, ERROR, Instant.now().plusSeconds(2), Duration.ofSeconds(2), Duration.ofMillis(5));
		this.listener.retrying(job, ERROR, Instant.now().plusSeconds(4), Duration.ofSeconds(4), Duration.ofMillis(5));
		assertThat(count(JobMetricsListener.FAILED, "report.build", "default")).isEqualTo(2);
		assertThat(count(JobMetricsListener.RETRIED, "report.build", "default")).isEqualTo(2);
		Timer delay = this.registry.get(JobMetricsListener.RETRY_DELAY)
			.tags("type", "report.build", "queue", "default")
			.timer();
		assertThat(delay.count()).isEqualTo(2);
		assertThat(delay.totalTime(TimeUnit.SECONDS)).isEqualTo(6);
		assertThat(delay.max(TimeUnit.SECONDS)).isEqualTo(4);
		assertThat(duration("report.build", "default", "retried").count()).isEqualTo(2);
	}

	@Test
	void discardedCountsAFailedAttempt() {
		this.listener.discarded(job("a", "q"), ERROR, Duration.ofMillis(1));
		assertThat(count(JobMetricsListener.FAILED, "a", "q")).isEqualTo(1);
		assertThat(count(JobMetricsListener.DISCARDED, "a", "q")).isEqualTo(1);
		assertThat(count(JobMetricsListener.DEAD_LETTERED, "a", "q")).isZero();
		assertThat(duration("a", "q", "discarded").count()).isEqualTo(1);
	}

	/** An expired job (ojs-conformance.md L2-TTL-002) ran no attempt: discarded, not failed, not timed. */
	@Test
	void expiredJobCountsAsDiscardedOnly() {
		Job expired = StoredJobs.job("a").queue("q").state(JobState.DISCARDED).attempt(0).build();
		this.listener.discarded(expired, JobError.of("expired", "expires_at passed"), Duration.ZERO);
		assertThat(count(JobMetricsListener.DISCARDED, "a", "q")).isEqualTo(1);
		assertThat(count(JobMetricsListener.FAILED, "a", "q")).isZero();
		assertThat(this.registry.find(JobMetricsListener.DURATION).timer()).isNull();
	}

	@Test
	void deadLetteredCountsAFailedAttempt() {
		this.listener.deadLettered(job("a", "q"), ERROR, Duration.ofMillis(1));
		assertThat(count(JobMetricsListener.FAILED, "a", "q")).isEqualTo(1);
		assertThat(count(JobMetricsListener.DEAD_LETTERED, "a", "q")).isEqualTo(1);
		assertThat(count(JobMetricsListener.DISCARDED, "a", "q")).isZero();
		assertThat(duration("a", "q", "dead_lettered").count()).isEqualTo(1);
	}

	@Test
	void attemptsWithoutAHandlerRunAreCountedButNotTimed() {
		this.listener.retrying(job("a", "q"), ERROR, Instant.now(), Duration.ofSeconds(1), Duration.ZERO);
		assertThat(count(JobMetricsListener.FAILED, "a", "q")).isEqualTo(1);
		assertThat(this.registry.find(JobMetricsListener.DURATION).timer()).isNull();
	}

	@Test
	void tagsKeepTypesAndQueuesApart() {
		this.listener.completed(job("a", "q1"), Duration.ofMillis(1));
		this.listener.completed(job("a", "q2"), Duration.ofMillis(1));
		this.listener.completed(job("b", "q1"), Duration.ofMillis(1));
		assertThat(this.registry.get(JobMetricsListener.COMPLETED).counters()).hasSize(3);
		assertThat(count(JobMetricsListener.COMPLETED, "a", "q1")).isEqualTo(1);
	}

	@Test
	void eventsTellTheQueueDepthGaugesOfTheirQueue() {
		JobStore store = mock(JobStore.class);
		given(store.countByQueueAndState()).willReturn(Map.of());
		QueueDepthMetrics depth = new QueueDepthMetrics(new OjsQueues(store), Duration.ofSeconds(5));
		depth.bindTo(this.registry);
		new JobMetricsListener(this.registry, depth).completed(job("a", "reports"), Duration.ofMillis(1));
		assertThat(this.registry.find(QueueDepthMetrics.DEPTH).tag("queue", "reports").gauges())
			.hasSize(JobState.values().length + 1);
	}

	private double count(String name, String type, String queue) {
		var counter = this.registry.find(name).tags("type", type, "queue", queue).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private Timer duration(String type, String queue, String outcome) {
		return this.registry.get(JobMetricsListener.DURATION)
			.tags("type", type, "queue", queue, "outcome", outcome)
			.timer();
	}

	private static Job job(String type, String queue) {
		return StoredJobs.job(type).queue(queue).build();
	}

}

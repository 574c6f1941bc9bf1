package dev.ojs.spring.actuate;

import java.time.Duration;
import java.time.Instant;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.worker.JobListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * {@link JobListener} that records job outcomes in Micrometer:
 * <ul>
 * <li>counters {@value #COMPLETED}, {@value #FAILED} (every failed attempt, whatever
 * follows), {@value #RETRIED}, {@value #DISCARDED} and {@value #DEAD_LETTERED}, tagged
 * {@code type} and {@code queue};</li>
 * <li>timer {@value #DURATION}: how long the handler ran, tagged {@code type},
 * {@code queue} and {@code outcome} ({@code completed}, {@code retried},
 * {@code discarded}, {@code dead_lettered}); attempts failed by the rescuer or by shutdown
 * did not run a handler to the end and are not timed;</li>
 * <li>timer {@value #RETRY_DELAY}: the backoff scheduled before each retry (spec §3,
 * capped by {@code max_interval}), tagged {@code type} and {@code queue}.</li>
 * </ul>
 */
public class JobMetricsListener implements JobListener {

	/** Counter of completed jobs. */
	public static final String COMPLETED = "ojs.jobs.completed";

	/** Counter of failed attempts. */
	public static final String FAILED = "ojs.jobs.failed";

	/** Counter of failed attempts scheduled for a retry. */
	public static final String RETRIED = "ojs.jobs.retried";

	/** Counter of discarded jobs. */
	public static final String DISCARDED = "ojs.jobs.discarded";

	/** Counter of dead-lettered jobs. */
	public static final String DEAD_LETTERED = "ojs.jobs.dead_lettered";

	/** Timer of handler durations. */
	public static final String DURATION = "ojs.job.duration";

	/** Timer of scheduled retry delays. */
	public static final String RETRY_DELAY = "ojs.retry.delay";

	private final MeterProvider<Counter> completed;

	private final MeterProvider<Counter> failed;

	private final MeterProvider<Counter> retried;

	private final MeterProvider<Counter> discarded;

	private final MeterProvider<Counter> deadLettered;

	private final MeterProvider<Timer> duration;

	private final MeterProvider<Timer> retryDelay;

	private final @Nullable QueueDepthMetrics queueDepth;

	/**
	 * Creates a listener recording into the registry.
	 * @param registry the meter registry
	 * @param queueDepth queue depth gauges to tell of every queue a job ran in, or
	 * {@code null}
	 */
	public JobMetricsListener(MeterRegistry registry, @Nullable QueueDepthMetrics queueDepth) {
		Assert.notNull(registry, "'registry' must not be null");
		this.completed = counter(registry, COMPLETED, "Jobs completed");
		this.failed = counter(registry, FAILED, "Failed job attempts");
		this.retried = counter(registry, RETRIED, "Failed job attempts scheduled for a retry");
		this.discarded = counter(registry, DISCARDED, "Jobs discarded");
		this.deadLettered = counter(registry, DEAD_LETTERED, "Jobs moved to the dead letter queue");
		this.duration = Timer.builder(DURATION).description("Job handler duration").withRegistry(registry);
		this.retryDelay = Timer.builder(RETRY_DELAY)
			.description("Backoff delay scheduled before a retry")
			.withRegistry(registry);
		this.queueDepth = queueDepth;
	}

	private static MeterProvider<Counter> counter(MeterRegistry registry, String name, String description) {
		return Counter.builder(name).description(description).withRegistry(registry);
	}

	@Override
	public void completed(Job job, Duration handlerDuration) {
		this.completed.withTags(tags(job)).increment();
		recordDuration(job, "completed", handlerDuration);
	}

	@Override
	public void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
		this.failed.withTags(tags(job)).increment();
		this.retried.withTags(tags(job)).increment();
		if (delay != null) {
			this.retryDelay.withTags(tags(job)).record(delay);
		}
		recordDuration(job, "retried", handlerDuration);
	}

	@Override
	public void discarded(Job job, JobError error, Duration handlerDuration) {
		this.discarded.withTags(tags(job)).increment();
		if (job.attempt() == 0) {
			// expired before it ran: no attempt failed
			return;
		}
		this.failed.withTags(tags(job)).increment();
		recordDuration(job, "discarded", handlerDuration);
	}

	@Override
	public void deadLettered(Job job, JobError error, Duration handlerDuration) {
		this.failed.withTags(tags(job)).increment();
		this.deadLettered.withTags(tags(job)).increment();
		recordDuration(job, "dead_lettered", handlerDuration);
	}

	private String[] tags(Job job) {
		return new String[] { "type", job.type(), "queue", job.queue() };
	}

	private void recordDuration(Job job, String outcome, @Nullable Duration handlerDuration) {
		if (this.queueDepth != null) {
			this.queueDepth.track(job.queue());
		}
		if (handlerDuration != null && !handlerDuration.isZero()) {
			this.duration.withTags("type", job.type(), "queue", job.queue(), "outcome", outcome)
				.record(handlerDuration);
		}
	}

}

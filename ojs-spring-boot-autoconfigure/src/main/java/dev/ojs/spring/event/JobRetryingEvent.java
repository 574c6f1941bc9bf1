package dev.ojs.spring.event;

import java.time.Duration;
import java.time.Instant;

import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;

/**
 * Published when an attempt failed and the job will be retried at {@link #getNextRetryAt()}.
 */
public class JobRetryingEvent extends OjsJobFailureEvent {

	private final Instant nextRetryAt;

	private final Duration delay;

	public JobRetryingEvent(JobInfo job, JobError error, Instant nextRetryAt, Duration delay,
			Duration handlerDuration) {
		super(job, error, handlerDuration);
		this.nextRetryAt = nextRetryAt;
		this.delay = delay;
	}

	/** {@code next_retry_at} (spec §10). */
	public Instant getNextRetryAt() {
		return this.nextRetryAt;
	}

	/** The retry delay: backoff with jitter, or a customised delay, capped at max_interval. */
	public Duration getDelay() {
		return this.delay;
	}

}

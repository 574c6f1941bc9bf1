package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;

/**
 * Published when an attempt's failure discarded the job: a {@code DISCARD} or {@code FAIL}
 * code, or exhaustion / a non-retryable error with {@code on_exhaustion: discard}.
 */
public class JobDiscardedEvent extends OjsJobFailureEvent {

	public JobDiscardedEvent(JobInfo job, JobError error, Duration handlerDuration) {
		super(job, error, handlerDuration);
	}

}

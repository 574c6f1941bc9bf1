package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;

/**
 * Published when an attempt's failure moved the job to the dead letter queue: a
 * {@code DEAD_LETTER} code, or exhaustion / a non-retryable error with
 * {@code on_exhaustion: dead_letter}.
 */
public class JobDeadLetteredEvent extends OjsJobFailureEvent {

	public JobDeadLetteredEvent(JobInfo job, JobError error, Duration handlerDuration) {
		super(job, error, handlerDuration);
	}

}

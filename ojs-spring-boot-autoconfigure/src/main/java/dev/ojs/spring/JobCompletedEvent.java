package dev.ojs.spring;

import java.time.Duration;

/**
 * Published when an attempt completed the job.
 */
public class JobCompletedEvent extends OjsJobEvent {

	public JobCompletedEvent(JobInfo job, Duration handlerDuration) {
		super(job, handlerDuration);
	}

}

package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.spring.JobInfo;

/**
 * Published when an attempt completed the job.
 */
public class JobCompletedEvent extends OjsJobEvent {

	public JobCompletedEvent(JobInfo job, Duration handlerDuration) {
		super(job, handlerDuration);
	}

}

package dev.ojs.spring;

import org.springframework.context.ApplicationEvent;

/**
 * Published by {@link OjsTemplate#cancel(String)} when it cancelled a job; the source is
 * the job as stored after the cancellation.
 */
public class JobCancelledEvent extends ApplicationEvent {

	public JobCancelledEvent(JobInfo job) {
		super(job);
	}

	public JobInfo getJob() {
		return (JobInfo) getSource();
	}

}

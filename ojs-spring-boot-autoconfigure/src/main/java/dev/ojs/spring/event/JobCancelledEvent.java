package dev.ojs.spring.event;

import org.springframework.context.ApplicationEvent;

import dev.ojs.spring.JobInfo;
import dev.ojs.spring.OjsTemplate;

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

package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;

/**
 * Base class of the events published when an attempt failed; published like every
 * {@link OjsJobEvent} (synchronously, after the write, on the writing worker thread).
 */
public abstract class OjsJobFailureEvent extends OjsJobEvent {

	private final JobError error;

	protected OjsJobFailureEvent(JobInfo job, JobError error, Duration handlerDuration) {
		super(job, handlerDuration);
		this.error = error;
	}

	/** The error the attempt failed with. */
	public JobError getError() {
		return this.error;
	}

}

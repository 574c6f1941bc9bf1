package dev.ojs.spring.event;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

import dev.ojs.job.NewJob;
import dev.ojs.spring.OjsTemplate;

/**
 * Published by {@link OjsTemplate} for every job it stored, after the insert (inside the
 * caller's transaction when there is one). A unique job whose key a live job held names that
 * job's id.
 */
public class JobEnqueuedEvent extends ApplicationEvent {

	private final String jobId;

	private final NewJob job;

	private final Instant enqueuedAt;

	public JobEnqueuedEvent(OjsTemplate source, String jobId, NewJob job, Instant enqueuedAt) {
		super(source);
		this.jobId = jobId;
		this.job = job;
		this.enqueuedAt = enqueuedAt;
	}

	public String getJobId() {
		return this.jobId;
	}

	public String getType() {
		return this.job.type();
	}

	public String getQueue() {
		return (this.job.queue() != null) ? this.job.queue() : NewJob.DEFAULT_QUEUE;
	}

	public int getPriority() {
		return this.job.priority();
	}

	/** When the job becomes due, or {@code null} for now. */
	public @Nullable Instant getRunAt() {
		return this.job.runAt();
	}

	/** Whether the job waits in state {@code pending} for activation. */
	public boolean isPending() {
		return this.job.pending();
	}

	public Instant getEnqueuedAt() {
		return this.enqueuedAt;
	}

}

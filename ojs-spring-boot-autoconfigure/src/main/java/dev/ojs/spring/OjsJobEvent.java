package dev.ojs.spring;

import java.time.Duration;

import org.springframework.context.ApplicationEvent;

/**
 * Base class of the events published after an attempt's outcome is stored. The source is
 * the {@link JobInfo} of the job as it was claimed (its {@link JobInfo#attempt()} is the
 * attempt that ran). Published on the worker's thread.
 */
public abstract class OjsJobEvent extends ApplicationEvent {

	private final Duration handlerDuration;

	protected OjsJobEvent(JobInfo job, Duration handlerDuration) {
		super(job);
		this.handlerDuration = handlerDuration;
	}

	/** The job as claimed for the attempt. */
	public JobInfo getJob() {
		return (JobInfo) getSource();
	}

	public String getJobId() {
		return getJob().id();
	}

	public String getType() {
		return getJob().type();
	}

	public String getQueue() {
		return getJob().queue();
	}

	/** The 1-based attempt that ran. */
	public int getAttempt() {
		return getJob().attempt();
	}

	/**
	 * How long the handler ran; {@link Duration#ZERO} when the attempt was failed by the
	 * reaper or by shutdown.
	 */
	public Duration getHandlerDuration() {
		return this.handlerDuration;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[id=" + getJobId() + ", type=" + getType() + ", queue=" + getQueue()
				+ ", attempt=" + getAttempt() + ", handlerDuration=" + this.handlerDuration + "]";
	}

}

package dev.ojs.spring.event;

import java.time.Duration;

import org.springframework.context.ApplicationEvent;

import dev.ojs.spring.JobInfo;

/**
 * Base class of the events published after an attempt's outcome is stored. The source is
 * the {@link JobInfo} of the job as it was claimed (its {@link JobInfo#attempt()} is the
 * attempt that ran). One event is built per outcome and handed to every
 * {@link OjsJobListener} bean and application listener that takes its type; an outcome that
 * none takes builds no event.
 * <p>
 * Events are published synchronously, after the outcome's write, on the thread that wrote
 * it: for attempts whose handler returned or threw, that is the node's single completer
 * thread ({@code ojs-completer-<node id>}), which writes the outcomes of every job of the
 * node in batches; for attempts failed by the rescuer or by shutdown, the rescuer's or the
 * stopping thread. Every listener therefore delays the node's later outcome
 * writes: listeners must be fast and should not block. Put slow work (e-mails, HTTP calls,
 * further database work) in an {@code @Async} listener (with {@code @EnableAsync}) or hand
 * it to an executor of your own. An exception thrown by a listener is logged and does not
 * affect the job.
 * <p>
 * Events of successive attempts of one job may arrive out of order (the next attempt can
 * run on another thread or node before the previous outcome's event is published): order
 * them by {@link #getAttempt() attempt}.
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
	 * rescuer or by shutdown.
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

package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.spring.JobInfo;

/**
 * Published when an attempt starts: on the handler thread just before an {@code @OjsJob}
 * handler runs, or when an external worker fetched the job over HTTP. Its
 * {@link #getHandlerDuration()} is zero. Given to {@link OjsJobListener} beans
 * ({@link OjsJobListener#onStarted}), not published as an application event, so that
 * application listeners of {@link OjsJobEvent} keep seeing outcomes only.
 */
public class JobStartedEvent extends OjsJobEvent {

	private final String owner;

	/**
	 * @param owner who holds the reservation: the node's id, or {@code remote:<worker id>}
	 * for an external worker
	 */
	public JobStartedEvent(JobInfo job, String owner) {
		super(job, Duration.ZERO);
		this.owner = owner;
	}

	/** Who holds the reservation: the node's id, or {@code remote:<worker id>}. */
	public String getOwner() {
		return this.owner;
	}

}

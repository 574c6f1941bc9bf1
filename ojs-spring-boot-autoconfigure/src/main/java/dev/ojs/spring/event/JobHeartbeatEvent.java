package dev.ojs.spring.event;

import java.time.Duration;
import java.time.Instant;

import dev.ojs.spring.JobInfo;

/**
 * A heartbeat extended an attempt's reservation: the node's heartbeater for its handlers, or
 * an external worker's BEAT over HTTP. Given to {@link OjsJobListener} beans
 * ({@link OjsJobListener#onHeartbeat}), not published as an application event.
 */
public class JobHeartbeatEvent extends OjsJobEvent {

	private final String owner;

	private final Instant visibleUntil;

	/**
	 * @param owner who holds the reservation: the node's id, or {@code remote:<worker id>}
	 * @param visibleUntil the new end of the reservation
	 */
	public JobHeartbeatEvent(JobInfo job, String owner, Instant visibleUntil) {
		super(job, Duration.ZERO);
		this.owner = owner;
		this.visibleUntil = visibleUntil;
	}

	/** Who holds the reservation: the node's id, or {@code remote:<worker id>}. */
	public String getOwner() {
		return this.owner;
	}

	public Instant getVisibleUntil() {
		return this.visibleUntil;
	}

}

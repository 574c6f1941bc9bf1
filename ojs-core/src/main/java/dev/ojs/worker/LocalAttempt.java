package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.RetryPolicy;

/**
 * One claimed attempt on this node, from claim until its outcome is stored. Its state only
 * moves forward, by compare-and-set, so exactly one of handler, shutdown and release decides
 * the attempt's outcome. Its job may be cancelled meanwhile (ojs-core.md §7.6), which the
 * handler sees through {@link #isCancelled()}.
 */
final class LocalAttempt implements Attempt {

	static final int CLAIMED = 0;

	static final int RUNNING = 1;

	/** The handler returned or threw; its outcome is queued for writing. */
	static final int FINISHED = 2;

	/** Released on shutdown before it started. */
	static final int RELEASED = 3;

	/** Still running at the end of the shutdown grace period; its failure is queued by shutdown. */
	static final int ABANDONED = 4;

	private static final Log logger = LogFactory.getLog(LocalAttempt.class);

	private final Job job;

	private final HandlerRegistration registration;

	private final Duration visibilityTimeout;

	private final String claimedFrom;

	private final WorkerStore store;

	private final AtomicInteger state = new AtomicInteger(CLAIMED);

	private final AtomicBoolean reservationLost = new AtomicBoolean();

	private final AtomicBoolean cancelled = new AtomicBoolean();

	private final AtomicBoolean timedOut = new AtomicBoolean();

	private volatile @Nullable Instant lockedUntil;

	/** The handler thread while it runs this attempt (guarded by this). */
	private @Nullable Thread thread;

	private volatile @Nullable RetryPolicy retryPolicy;

	private volatile @Nullable String resultJson;

	/**
	 * @param claimedFrom the served queue whose poller claimed it and whose slot it holds
	 */
	LocalAttempt(Job job, HandlerRegistration registration, Duration visibilityTimeout, String claimedFrom,
			WorkerStore store) {
		this.job = job;
		this.registration = registration;
		this.visibilityTimeout = visibilityTimeout;
		this.claimedFrom = claimedFrom;
		this.store = store;
		this.lockedUntil = job.lockedUntil();
	}

	@Override
	public Job job() {
		return this.job;
	}

	String id() {
		return this.job.id();
	}

	String claimedFrom() {
		return this.claimedFrom;
	}

	/** Id and attempt: a stale attempt still running here and the job's next attempt are two attempts. */
	String key() {
		return this.job.id() + "#" + this.job.attempt();
	}

	@Override
	public RetryPolicy retryPolicy() {
		RetryPolicy policy = this.retryPolicy;
		if (policy == null) {
			policy = RetryPolicies.over(this.job.retryPolicy(), this.registration.retryPolicy(), () -> {
			});
			this.retryPolicy = policy;
		}
		return policy;
	}

	HandlerRegistration registration() {
		return this.registration;
	}

	Duration visibilityTimeout() {
		return this.visibilityTimeout;
	}

	@Nullable Instant lockedUntil() {
		return this.lockedUntil;
	}

	void extendedTo(Instant lockedUntil) {
		this.lockedUntil = lockedUntil;
	}

	/** Spec §9.3: extends the reservation now by the visibility timeout. */
	@Override
	public void heartbeat() {
		Instant until = Timestamps.plus(this.store.now(), this.visibilityTimeout);
		if (this.store.heartbeat(this.job.lockedBy(), List.of(this.job.id()), until) > 0) {
			this.lockedUntil = until;
		}
		else {
			reservationLost();
		}
	}

	/**
	 * The reservation is gone: a rescuer recorded the attempt as failed after its visibility
	 * timeout (spec §9.2). The handler cannot be stopped, but every write of this attempt's
	 * outcome will be rejected. Logs a warning the first time.
	 */
	void reservationLost() {
		int state = this.state.get();
		if ((state == CLAIMED || state == RUNNING) && !isCancelled() && this.reservationLost.compareAndSet(false, true)) {
			logger.warn("OJS lost the reservation of job " + this.job.id() + " attempt " + this.job.attempt() + " ("
					+ this.job.type() + "): its visibility timeout of " + this.visibilityTimeout
					+ " expired and the attempt was recorded as failed (visibility_timeout). The handler is still"
					+ " running; its outcome will be rejected");
		}
	}

	/** Whether the reservation is gone: no more heartbeats, the outcome is stale. */
	boolean isReservationLost() {
		return this.reservationLost.get();
	}

	/**
	 * The job was cancelled (ojs-core.md §7.6): the handler sees {@link #isCancelled()}, and
	 * its thread is interrupted when the registration asks for it.
	 */
	void cancel() {
		if (this.cancelled.compareAndSet(false, true) && this.registration.interruptOnCancel()) {
			interrupt();
		}
	}

	@Override
	public boolean isCancelled() {
		return this.cancelled.get();
	}

	/** The attempt ran past its execution timeout: its outcome is that failure, its thread is interrupted. */
	void timeOut() {
		if (this.timedOut.compareAndSet(false, true)) {
			interrupt();
		}
	}

	/** Whether the attempt ran past its execution timeout. */
	boolean isTimedOut() {
		return this.timedOut.get();
	}

	boolean transition(int from, int to) {
		return this.state.compareAndSet(from, to);
	}

	/**
	 * The handler thread starts ({@code thread}) or stops ({@code null}) running this
	 * attempt; a start after a cancellation that interrupts is interrupted at once.
	 */
	synchronized void runningOn(@Nullable Thread thread) {
		this.thread = thread;
		if (thread != null && isCancelled() && this.registration.interruptOnCancel()) {
			thread.interrupt();
		}
	}

	/** Interrupts the handler thread, if it still runs this attempt. */
	synchronized void interrupt() {
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	@Override
	public void setResultJson(String resultJson) {
		this.resultJson = resultJson;
	}

	/** The result the handler set, or {@code null}. */
	@Nullable String resultJson() {
		return this.resultJson;
	}

}

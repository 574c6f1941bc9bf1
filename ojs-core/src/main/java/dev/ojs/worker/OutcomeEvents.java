package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * Tells the {@link JobListener} about stored outcomes, and logs each failed attempt
 * ({@link FailedAttempts}). Whatever the listener throws is logged, never passed to the
 * worker thread that told it.
 */
final class OutcomeEvents {

	private static final Log logger = LogFactory.getLog(OutcomeEvents.class);

	private final JobListener listener;

	OutcomeEvents(@Nullable JobListener listener) {
		this.listener = (listener != null) ? listener : JobListener.NONE;
	}

	void started(Job job) {
		try {
			this.listener.started(job);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS job listener failed on started " + job.id(), ex);
		}
	}

	/** Whether anyone listens: heartbeat events of external workers cost a lookup each. */
	boolean listening() {
		return this.listener != JobListener.NONE;
	}

	void heartbeat(Job job, Instant visibleUntil) {
		try {
			this.listener.heartbeat(job, visibleUntil);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS job listener failed on the heartbeat of " + job.id(), ex);
		}
	}

	void completed(Job job, Duration handlerDuration) {
		try {
			this.listener.completed(job, handlerDuration);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS job listener failed on completed " + job.id(), ex);
		}
	}

	void failed(FailurePlanner.Plan plan, Duration handlerDuration) {
		FailedAttempts.log(plan);
		Job job = plan.job();
		try {
			if (plan.delay() != null) {
				this.listener.retrying(job, plan.error(), plan.attemptFailure().nextRetryAt(), plan.delay(),
						handlerDuration);
			}
			else if (plan.attemptFailure().deadLetter()) {
				this.listener.deadLettered(job, plan.error(), handlerDuration);
			}
			else {
				this.listener.discarded(job, plan.error(), handlerDuration);
			}
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS job listener failed on the failure of " + job.id(), ex);
		}
	}

	/** A job discarded without an attempt (expired); its handler never ran. */
	void discarded(Job job, JobError error) {
		try {
			this.listener.discarded(job, error, Duration.ZERO);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS job listener failed on discarded " + job.id(), ex);
		}
	}

}

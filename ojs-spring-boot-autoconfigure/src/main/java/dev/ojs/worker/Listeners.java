package dev.ojs.worker;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;

/**
 * Tells the {@link JobEventListener} about stored outcomes, never letting it throw into the
 * worker.
 */
final class Listeners {

	private static final Log logger = LogFactory.getLog(Listeners.class);

	private final JobEventListener listener;

	Listeners(JobEventListener listener) {
		this.listener = (listener != null) ? listener : JobEventListener.NONE;
	}

	void completed(Job job, Duration handlerDuration) {
		try {
			this.listener.completed(job, handlerDuration);
		}
		catch (RuntimeException ex) {
			logger.warn("OJS job event listener failed on completed " + job.id(), ex);
		}
	}

	void failed(FailurePlanner.Plan plan, Duration handlerDuration) {
		Job job = plan.job();
		try {
			if (plan.delay() != null) {
				this.listener.retrying(job, plan.error(), plan.failure().nextRetryAt(), plan.delay(), handlerDuration);
			}
			else if (plan.failure().deadLetter()) {
				this.listener.deadLettered(job, plan.error(), handlerDuration);
			}
			else {
				this.listener.discarded(job, plan.error(), handlerDuration);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("OJS job event listener failed on the failure of " + job.id(), ex);
		}
	}

}

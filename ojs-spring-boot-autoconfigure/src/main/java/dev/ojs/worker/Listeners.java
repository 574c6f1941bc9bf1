package dev.ojs.worker;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;

/**
 * Tells the {@link JobEventListener} about stored outcomes, never letting it throw into the
 * worker: whatever it throws, {@link Error}s included, is logged, except a
 * {@link VirtualMachineError} (the JVM is failing).
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
		catch (Throwable ex) {
			rethrowIfFatal(ex);
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
		catch (Throwable ex) {
			rethrowIfFatal(ex);
			logger.warn("OJS job event listener failed on the failure of " + job.id(), ex);
		}
	}

	/**
	 * Worker threads catch everything to keep running, but not a {@link VirtualMachineError}
	 * (out of memory, stack overflow, internal error): that one is rethrown.
	 */
	static void rethrowIfFatal(Throwable ex) {
		if (ex instanceof VirtualMachineError error) {
			throw error;
		}
	}

}

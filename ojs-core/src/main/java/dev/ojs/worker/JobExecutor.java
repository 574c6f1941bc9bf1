package dev.ojs.worker;

import java.time.Duration;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.retry.JobError;

/**
 * Runs claimed attempts on handler threads: the handler, then its outcome for the
 * {@link Completer}. A thrown exception becomes an OJS error through the registration's
 * {@link ErrorClassifier}, and the {@link FailurePlanner} decides the failure's next state.
 * An attempt whose job was cancelled (ojs-core.md §7.6) runs no handler if it has not
 * started, and its outcome is never written: the job stays {@code cancelled}.
 */
final class JobExecutor {

	private static final Log logger = LogFactory.getLog(JobExecutor.class);

	private final WorkerStore store;

	private final FailurePlanner planner;

	private final Completer completer;

	private final Executions executions;

	private final Slots slots;

	JobExecutor(WorkerStore store, FailurePlanner planner, Completer completer, Executions executions, Slots slots) {
		this.store = store;
		this.planner = planner;
		this.completer = completer;
		this.executions = executions;
		this.slots = slots;
	}

	/** Runs one attempt on the calling handler thread and queues its outcome. */
	void run(Execution execution) {
		boolean queued = false;
		long handlerNanos = -1;
		try {
			if (!execution.transition(Execution.CLAIMED, Execution.RUNNING)) {
				return;
			}
			Throwable failure = null;
			long start = System.nanoTime();
			boolean ran = !execution.isCancelled();
			if (ran) {
				this.completer.started(execution.job());
				execution.runningOn(Thread.currentThread());
				try {
					execution.registration().handler().handle(execution);
				}
				catch (Throwable ex) {
					failure = ex;
				}
				finally {
					execution.runningOn(null);
					Thread.interrupted();
				}
			}
			long elapsed = System.nanoTime() - start;
			if (ran) {
				handlerNanos = elapsed;
			}
			Duration duration = Duration.ofNanos(elapsed);
			if (!execution.transition(Execution.RUNNING, Execution.FINISHED)) {
				// abandoned by shutdown, which queued its outcome or freed its slot
				queued = true;
				return;
			}
			if (execution.isCancelled()) {
				// the store holds the job cancelled: nothing to write, the slot is free now
				this.executions.untrack(execution);
				logger.info("OJS job " + execution.id() + " (" + execution.job().type() + ") was cancelled; attempt "
						+ execution.job().attempt() + (ran ? " ended" : " did not run")
						+ " and its outcome is not recorded");
				return;
			}
			Throwable thrown = failure;
			queued = submit(execution, () -> (thrown != null) ? classify(execution, thrown) : null, duration);
		}
		finally {
			this.slots.handlerReturned(execution, queued, handlerNanos);
		}
	}

	/**
	 * Records an attempt still running at the end of the shutdown grace period as failed
	 * with error type {@value FailurePlanner#SHUTDOWN}, and interrupts its handler.
	 */
	void abandon(Execution execution, String nodeId) {
		JobError shutdown = JobError.of(FailurePlanner.SHUTDOWN, "Worker " + nodeId + " shut down while the job was running");
		if (!submit(execution, () -> shutdown, Duration.ZERO)) {
			this.slots.free(execution);
		}
		execution.interrupt();
	}

	/**
	 * Queues the outcome: completed when {@code error} supplies {@code null}, else failed with
	 * that error. When that fails, stops tracking the attempt so the rescuer records it.
	 * @return whether it was queued
	 */
	private boolean submit(Execution execution, Supplier<@Nullable JobError> error, Duration duration) {
		try {
			JobError failure = error.get();
			FailurePlanner.Plan plan = (failure != null) ? this.planner.plan(execution.job(), failure, this.store.now())
					: null;
			this.completer.submit(new Completer.Outcome(execution, duration, plan));
			return true;
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.error("OJS could not record the outcome of job " + execution.id() + " attempt "
					+ execution.job().attempt() + "; its reservation expires and the rescuer records the attempt as failed",
					ex);
			this.executions.untrack(execution);
			return false;
		}
	}

	private JobError classify(Execution execution, Throwable failure) {
		ErrorClassifier classifier = execution.registration().errorClassifier();
		if (classifier != null) {
			try {
				JobError error = classifier.classify(execution.job(), failure);
				if (error != null) {
					return error;
				}
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				logger.warn("OJS error classifier failed for job " + execution.id(), ex);
			}
		}
		return JobError.of(failure);
	}

}

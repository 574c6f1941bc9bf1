package dev.ojs.worker;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
final class AttemptRunner {

	private static final Log logger = LogFactory.getLog(AttemptRunner.class);

	private final WorkerStore store;

	private final FailurePlanner planner;

	private final Completer completer;

	private final LocalAttempts attempts;

	private final Slots slots;

	/** Interrupts attempts at their execution timeout; its thread starts with the first timed attempt. */
	private final ScheduledThreadPoolExecutor timeouts;

	AttemptRunner(WorkerStore store, FailurePlanner planner, Completer completer, LocalAttempts attempts, Slots slots) {
		this.store = store;
		this.planner = planner;
		this.completer = completer;
		this.attempts = attempts;
		this.slots = slots;
		this.timeouts = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "ojs-timeouts");
			thread.setDaemon(true);
			return thread;
		});
		this.timeouts.setRemoveOnCancelPolicy(true);
	}

	/** Stops interrupting attempts at their timeouts. */
	void stop() {
		this.timeouts.shutdownNow();
	}

	/**
	 * The attempt's execution timeout: the job's own, counted from the attempt's start in the
	 * store (where its reservation ends too), else its handler's, from now; {@code null} for none.
	 */
	@Nullable Duration timeout(LocalAttempt attempt) {
		if (attempt.job().deadline() != null) {
			Duration left = Duration.between(this.store.now(), attempt.job().deadline());
			return left.isNegative() ? Duration.ZERO : left;
		}
		return attempt.registration().timeout();
	}

	/** Runs one attempt on the calling handler thread and queues its outcome. */
	void run(LocalAttempt attempt) {
		boolean queued = false;
		long handlerNanos = -1;
		try {
			if (!attempt.transition(LocalAttempt.CLAIMED, LocalAttempt.RUNNING)) {
				return;
			}
			Throwable failure = null;
			long start = System.nanoTime();
			boolean ran = !attempt.isCancelled();
			if (ran) {
				this.completer.started(attempt.job());
				Duration timeout = timeout(attempt);
				attempt.runningOn(Thread.currentThread());
				ScheduledFuture<?> timer = (timeout != null) ? scheduleTimeout(attempt, timeout) : null;
				try {
					attempt.registration().handler().handle(attempt);
				}
				catch (Throwable ex) {
					failure = ex;
				}
				finally {
					if (timer != null) {
						timer.cancel(false);
					}
					attempt.runningOn(null);
					Thread.interrupted();
				}
			}
			long elapsed = System.nanoTime() - start;
			if (ran) {
				handlerNanos = elapsed;
			}
			Duration duration = Duration.ofNanos(elapsed);
			if (!attempt.transition(LocalAttempt.RUNNING, LocalAttempt.FINISHED)) {
				// abandoned by shutdown, which queued its outcome or freed its slot
				queued = true;
				return;
			}
			if (attempt.isCancelled()) {
				// the store holds the job cancelled: nothing to write, the slot is free now
				this.attempts.untrack(attempt);
				logger.info("OJS job " + attempt.id() + " (" + attempt.job().type() + ") was cancelled; attempt "
						+ attempt.job().attempt() + (ran ? " ended" : " did not run")
						+ " and its outcome is not recorded");
				return;
			}
			Throwable thrown = failure;
			if (attempt.isTimedOut()) {
				// ojs-timeouts.md §3.1: whatever the handler did after its interrupt, the attempt failed
				queued = submit(attempt, () -> FailurePlanner.executionTimeout(attempt.job(), duration), duration, true);
			}
			else {
				queued = submit(attempt, () -> (thrown != null) ? classify(attempt, thrown) : null, duration, false);
			}
		}
		finally {
			this.slots.handlerReturned(attempt, queued, handlerNanos);
		}
	}

	/**
	 * Records an attempt still running at the end of the shutdown grace period as failed
	 * with error type {@value FailurePlanner#SHUTDOWN}, and interrupts its handler.
	 */
	void abandon(LocalAttempt attempt, String nodeId) {
		JobError shutdown = JobError.of(FailurePlanner.SHUTDOWN, "Worker " + nodeId + " shut down while the job was running");
		if (!submit(attempt, () -> shutdown, Duration.ZERO, false)) {
			this.slots.free(attempt);
		}
		attempt.interrupt();
	}

	/**
	 * Queues the outcome: completed when {@code error} supplies {@code null}, else failed with
	 * that error. When that fails, stops tracking the attempt so the rescuer records it.
	 * @return whether it was queued
	 */
	private boolean submit(LocalAttempt attempt, Supplier<@Nullable JobError> error, Duration duration,
			boolean timedOut) {
		try {
			JobError failure = error.get();
			FailurePlanner.Plan plan = (failure == null) ? null
					: timedOut ? this.planner.planTimedOut(attempt.job(), failure, this.store.now())
							: this.planner.plan(attempt.job(), failure, this.store.now());
			this.completer.submit(new Completer.Outcome(attempt, duration, plan));
			return true;
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.error("OJS could not record the outcome of job " + attempt.id() + " attempt "
					+ attempt.job().attempt()
					+ "; its reservation expires and the rescuer records the attempt as failed", ex);
			this.attempts.untrack(attempt);
			return false;
		}
	}

	private @Nullable ScheduledFuture<?> scheduleTimeout(LocalAttempt attempt, Duration timeout) {
		try {
			return this.timeouts.schedule(attempt::timeOut, Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// stopping: the shutdown grace period ends the attempt
			return null;
		}
	}

	private JobError classify(LocalAttempt attempt, Throwable failure) {
		ErrorClassifier classifier = attempt.registration().errorClassifier();
		if (classifier != null) {
			try {
				JobError error = classifier.classify(attempt.job(), failure);
				if (error != null) {
					return error;
				}
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				logger.warn("OJS error classifier failed for job " + attempt.id(), ex);
			}
		}
		return JobError.of(failure);
	}

}

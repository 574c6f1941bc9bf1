package dev.ojs.worker;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;

/**
 * A job type this node can run.
 *
 * @param type the job type
 * @param queue the type's default queue, always served by a node that registers it; a job
 * enqueued into another queue runs on the nodes serving that queue
 * @param concurrency at most this many of this type run at once on this node; 0 = only the
 * queue's limit applies
 * @param visibilityTimeout reservation length; {@code null} = the worker default
 * @param handler the code to run
 * @param errorClassifier turns the handler's exceptions into OJS errors
 * @param retryPolicy the handler's policy: spec defaults &lt; the application's defaults
 * &lt; the handler's own settings (effective); a job's own fields go over it
 * @param interruptOnCancel whether the handler's thread is interrupted when its job is
 * cancelled while it runs; either way {@link Attempt#isCancelled()} tells it
 * @param timeout the execution timeout of the type's attempts, unless a job has its own
 * ({@link dev.ojs.job.Job#timeout()}): past it the handler's thread is interrupted and the
 * attempt fails with type {@code timeout}; {@code null} for none
 */
public record HandlerRegistration(String type, String queue, int concurrency,
		@Nullable Duration visibilityTimeout, JobHandler handler, @Nullable ErrorClassifier errorClassifier,
		RetryPolicy retryPolicy, boolean interruptOnCancel, @Nullable Duration timeout) {

	public HandlerRegistration {
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("timeout of " + type + " must be positive, got " + timeout);
		}
	}

	/** A registration without an execution timeout. */
	public HandlerRegistration(String type, String queue, int concurrency, @Nullable Duration visibilityTimeout,
			JobHandler handler, @Nullable ErrorClassifier errorClassifier, RetryPolicy retryPolicy,
			boolean interruptOnCancel) {
		this(type, queue, concurrency, visibilityTimeout, handler, errorClassifier, retryPolicy, interruptOnCancel,
				null);
	}

	/** A registration whose handler is not interrupted when its job is cancelled. */
	public HandlerRegistration(String type, String queue, int concurrency, @Nullable Duration visibilityTimeout,
			JobHandler handler, @Nullable ErrorClassifier errorClassifier, RetryPolicy retryPolicy) {
		this(type, queue, concurrency, visibilityTimeout, handler, errorClassifier, retryPolicy, false);
	}

}

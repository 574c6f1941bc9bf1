package dev.ojs.worker;

import dev.ojs.job.Job;
import dev.ojs.retry.RetryPolicy;

/**
 * The attempt a {@link JobHandler} is running.
 */
public interface Attempt {

	/** The job as claimed: {@link Job#attempt()} is this attempt's 1-based number. */
	Job job();

	/** The retry policy this attempt runs with: the job's own fields over its handler's policy (spec §8.1). */
	RetryPolicy retryPolicy();

	/**
	 * Extends this attempt's reservation by the visibility timeout now (RET-13). The worker
	 * also heartbeats running jobs on its own; call this from handlers that block for long.
	 */
	void heartbeat();

	/**
	 * Whether the job was cancelled while this attempt ran (ojs-core.md §7.6). The worker
	 * checks every poll interval; a handler that sees it should stop: whatever it returns
	 * or throws then, the job stays {@code cancelled} and is not retried.
	 */
	default boolean isCancelled() {
		return false;
	}

	/**
	 * Sets this attempt's result, as JSON (spec README decision 28): when the handler returns
	 * normally, it is stored with the completion and read back with the job.
	 */
	default void setResultJson(String resultJson) {
		throw new UnsupportedOperationException("This attempt keeps no result");
	}

}

package dev.ojs.spring;

import java.util.List;

import dev.ojs.job.ErrorEntry;

/**
 * The running attempt, for {@link OjsJob @OjsJob} methods that declare a parameter of this
 * type (at any position; it consumes no JSON argument).
 */
public interface JobContext {

	/** The job id. */
	String id();

	/** The job type. */
	String type();

	/** The queue it was claimed from. */
	String queue();

	/** This attempt's 1-based number. */
	int attempt();

	/** The effective policy's {@code max_attempts}. */
	int maxAttempts();

	/** Whether a failure of this attempt cannot be retried because attempts are exhausted. */
	default boolean isLastAttempt() {
		return attempt() >= maxAttempts();
	}

	/** Errors of previous attempts, oldest first (spec §10.1). */
	List<ErrorEntry> previousErrors();

	/** The job's metadata as JSON (an object). */
	String metaJson();

	/**
	 * Extends this attempt's reservation by the visibility timeout now (spec §9.3). The
	 * worker also heartbeats running jobs itself; call this from long blocking work.
	 */
	void heartbeat();

	/**
	 * Whether the job was cancelled while this attempt runs (ojs-core.md §7.6); the worker
	 * finds out within one {@code ojs.worker.poll-interval}. A handler that sees it should
	 * stop: the job stays {@code cancelled} whatever the method returns or throws, and is not
	 * retried.
	 */
	default boolean isCancelled() {
		return false;
	}

}

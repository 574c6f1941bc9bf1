package dev.ojs.spring;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.WorkflowPlace;

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

	/** The id of the workflow this job is a step or callback of, or {@code null} for a job outside one. */
	default @Nullable String workflowId() {
		return null;
	}

	/**
	 * Where this job stands in its workflow: the workflow's type, and the job's role and step
	 * index; {@code null} for a job outside a workflow.
	 */
	default @Nullable WorkflowPlace workflowPlace() {
		return null;
	}

	/**
	 * The results this job got from its workflow (spec README decision 28) as a JSON array: a
	 * chain step's element {@code i} is step {@code i}'s result, a batch callback's the batch's
	 * job {@code i}'s ({@code null} for one that returned none); {@code null} for a job outside
	 * a workflow or not given any.
	 */
	default @Nullable String parentResultsJson() {
		return null;
	}

	/**
	 * {@link #parentResultsJson()} read as a list of {@code type} with the application's JSON
	 * mapper; empty when there are none.
	 */
	default <T> List<T> parentResults(Class<T> type) {
		return List.of();
	}

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

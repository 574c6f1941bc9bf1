package dev.ojs.spring.event;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.ErrorEntry;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;

/**
 * {@code workflow.failed}: a step (or a callback) ended without success after its retries,
 * named with its last error.
 */
public class WorkflowFailedEvent extends OjsWorkflowEvent {

	private final @Nullable WorkflowJob failedStep;

	private final @Nullable ErrorEntry error;

	public WorkflowFailedEvent(Workflow workflow, @Nullable WorkflowJob failedStep, @Nullable ErrorEntry error) {
		super(workflow);
		this.failedStep = failedStep;
		this.error = error;
	}

	/** The first step (or callback) that failed, or {@code null} when none is stored any more. */
	public @Nullable WorkflowJob getFailedStep() {
		return this.failedStep;
	}

	/** The last error of {@link #getFailedStep()}, or {@code null} (a cancelled job has none). */
	public @Nullable ErrorEntry getError() {
		return this.error;
	}

}

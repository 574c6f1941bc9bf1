package dev.ojs.workflow;

import java.time.Duration;

/**
 * Told of each transition of a workflow once the transaction that made it committed (never
 * when it rolled back), once per transition (ojs-events.md §3.5), on the thread that wrote
 * it: for a job's end that is often the node's completer thread, so methods must be fast.
 */
public interface WorkflowListener {

	/** Tells nothing. */
	WorkflowListener NONE = new WorkflowListener() {
	};

	/** A workflow was created: its first step (every job of a group or batch) is enqueued. */
	default void onStarted(Workflow workflow) {
	}

	/**
	 * A step succeeded.
	 * @param workflow the workflow with its counters after the step
	 * @param step the step's job, its type and index
	 * @param duration from the step's start to its end
	 */
	default void onStepCompleted(Workflow workflow, WorkflowJob step, Duration duration) {
	}

	/** A workflow ended: {@link Workflow#state()} is completed, failed or cancelled. */
	default void onEnded(Workflow workflow) {
	}

}

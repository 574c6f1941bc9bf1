package dev.ojs.spring.event;

import java.time.Duration;

import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowJob;

/** {@code workflow.step_completed}: a step of a workflow succeeded. */
public class WorkflowStepCompletedEvent extends OjsWorkflowEvent {

	private final WorkflowJob step;

	private final Duration duration;

	public WorkflowStepCompletedEvent(Workflow workflow, WorkflowJob step, Duration duration) {
		super(workflow);
		this.step = step;
		this.duration = duration;
	}

	/** The step: its job id, type and index. */
	public WorkflowJob getStep() {
		return this.step;
	}

	/** From the step's start to its end. */
	public Duration getDuration() {
		return this.duration;
	}

	/** Steps not yet ended. */
	public int getStepsRemaining() {
		Workflow workflow = getWorkflow();
		return Math.max(0, workflow.total() - workflow.completed() - workflow.failed());
	}

}

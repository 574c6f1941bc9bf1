package dev.ojs.spring.event;

import dev.ojs.workflow.Workflow;

/** {@code workflow.completed}: every step (and every callback that ran) succeeded. */
public class WorkflowCompletedEvent extends OjsWorkflowEvent {

	public WorkflowCompletedEvent(Workflow workflow) {
		super(workflow);
	}

}

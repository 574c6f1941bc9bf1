package dev.ojs.spring.event;

import dev.ojs.workflow.Workflow;

/** {@code workflow.started}: a workflow was created and its first step (every job of a group or batch) enqueued. */
public class WorkflowStartedEvent extends OjsWorkflowEvent {

	public WorkflowStartedEvent(Workflow workflow) {
		super(workflow);
	}

}

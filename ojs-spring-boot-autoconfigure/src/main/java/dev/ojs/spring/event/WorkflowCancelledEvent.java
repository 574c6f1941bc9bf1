package dev.ojs.spring.event;

import dev.ojs.workflow.Workflow;

/** A running workflow was cancelled (spec README decision 32); no event of ojs-events.md names it. */
public class WorkflowCancelledEvent extends OjsWorkflowEvent {

	public WorkflowCancelledEvent(Workflow workflow) {
		super(workflow);
	}

}

package dev.ojs.spring.event;

import org.springframework.context.ApplicationEvent;

import dev.ojs.workflow.Workflow;

/**
 * Base class of the workflow events of ojs-events.md §3.5, published once per transition
 * after the transaction that made it committed, on the thread that wrote it (often the node's
 * completer thread: listeners must be fast, see {@link OjsJobEvent}). The source is the
 * {@link Workflow} with its counters after the transition.
 */
public abstract class OjsWorkflowEvent extends ApplicationEvent {

	protected OjsWorkflowEvent(Workflow workflow) {
		super(workflow);
	}

	/** The workflow after the transition. */
	public Workflow getWorkflow() {
		return (Workflow) getSource();
	}

}

package dev.ojs.spring.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

import dev.ojs.spring.event.OjsWorkflowEvent;
import dev.ojs.spring.event.WorkflowCancelledEvent;
import dev.ojs.spring.event.WorkflowCompletedEvent;
import dev.ojs.spring.event.WorkflowFailedEvent;
import dev.ojs.spring.event.WorkflowStartedEvent;

/**
 * Micrometer meters of workflows, from the transitions this node committed:
 * {@value #STARTED} (tag {@code type}: chain, group or batch) and {@value #ENDED} (tags
 * {@code type} and {@code state}: completed, failed or cancelled).
 */
public class WorkflowMetricsListener {

	/** Counter of workflows created. */
	public static final String STARTED = "ojs.workflows.started";

	/** Counter of workflows that ended. */
	public static final String ENDED = "ojs.workflows.ended";

	private final MeterRegistry registry;

	public WorkflowMetricsListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@EventListener
	public void started(WorkflowStartedEvent event) {
		Counter.builder(STARTED).description("Workflows created")
			.tag("type", event.getWorkflow().type().value())
			.register(this.registry).increment();
	}

	@EventListener({ WorkflowCompletedEvent.class, WorkflowFailedEvent.class, WorkflowCancelledEvent.class })
	public void ended(OjsWorkflowEvent event) {
		Counter.builder(ENDED).description("Workflows that ended, by type and end state")
			.tags("type", event.getWorkflow().type().value(), "state", event.getWorkflow().state().value())
			.register(this.registry).increment();
	}

}

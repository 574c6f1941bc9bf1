package dev.ojs.spring.actuate;

import java.time.Instant;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.ojs.spring.event.WorkflowCancelledEvent;
import dev.ojs.spring.event.WorkflowCompletedEvent;
import dev.ojs.spring.event.WorkflowFailedEvent;
import dev.ojs.spring.event.WorkflowStartedEvent;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WorkflowMetricsListener}: workflows started by type, ended by type and state.
 */
class WorkflowMetricsListenerTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final WorkflowMetricsListener listener = new WorkflowMetricsListener(this.registry);

	@Test
	void countsStartsByTypeAndEndsByTypeAndState() {
		this.listener.started(new WorkflowStartedEvent(workflow(WorkflowType.CHAIN, WorkflowState.RUNNING)));
		this.listener.ended(new WorkflowCompletedEvent(workflow(WorkflowType.CHAIN, WorkflowState.COMPLETED)));
		this.listener.ended(new WorkflowFailedEvent(workflow(WorkflowType.BATCH, WorkflowState.FAILED), null, null));
		this.listener.ended(new WorkflowFailedEvent(workflow(WorkflowType.BATCH, WorkflowState.FAILED), null, null));
		this.listener.ended(new WorkflowCancelledEvent(workflow(WorkflowType.GROUP, WorkflowState.CANCELLED)));
		assertThat(this.registry.get(WorkflowMetricsListener.STARTED).tag("type", "chain").counter().count()).isEqualTo(1);
		assertThat(count("chain", "completed")).isEqualTo(1);
		assertThat(count("batch", "failed")).isEqualTo(2);
		assertThat(count("group", "cancelled")).isEqualTo(1);
	}

	private double count(String type, String state) {
		return this.registry.get(WorkflowMetricsListener.ENDED).tag("type", type).tag("state", state).counter().count();
	}

	private static Workflow workflow(WorkflowType type, WorkflowState state) {
		return new Workflow("019539a4-0001-7000-8000-000000000001", type, "w", state, 2, 0, 0, "{}", Instant.EPOCH,
				state.isTerminal() ? Instant.EPOCH : null);
	}

}

package dev.ojs.jdbc;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ojs.jdbc.AdvanceSql.Counters;
import dev.ojs.jdbc.AdvanceSql.Pending;
import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowState;
import dev.ojs.workflow.WorkflowType;

import static org.assertj.core.api.Assertions.assertThat;

/** What an advance writes once it went through its workflows ({@link Pending}). */
class AdvancePendingTests {

	private static final Instant NOW = Instant.parse("2026-11-30T02:00:00Z");

	/** A workflow the advance ended gets its counters from its end, not from a second update of its row. */
	@Test
	void countersOfWorkflowsThatEndedAreLeftToTheirEnd() {
		Pending pending = new Pending();
		pending.counters().add(new Counters("group-running", 3, 1));
		pending.counters().add(new Counters("group-ended", 9, 1));
		pending.counters().add(new Counters("batch-running", 5, 0));
		pending.ended().add(new Workflow("group-ended", WorkflowType.GROUP, null, WorkflowState.FAILED, 10, 9, 1, "{}",
				NOW, NOW));
		assertThat(pending.countersOfRunning()).containsExactly(new Counters("group-running", 3, 1),
				new Counters("batch-running", 5, 0));
		assertThat(new Pending().countersOfRunning()).isEmpty();
	}

}

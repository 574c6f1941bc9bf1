package dev.ojs.jdbc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

import static org.assertj.core.api.Assertions.assertThat;

/** What runs after a commit, and in which order. */
class AfterCommitTests {

	private final List<String> ran = new CopyOnWriteArrayList<>();

	@AfterEach
	void clear() {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.clearSynchronization();
		}
	}

	/** ojs-events.md §3.5: a node tells of a transition before its workers are woken to act on it. */
	@Test
	void listenersAreToldBeforeWorkersAreWokenWhateverTheOrderOfRegistration() {
		TransactionSynchronizationManager.initSynchronization();
		AfterCommit.run(() -> this.ran.add("wake jobs"));
		AfterCommit.tell(() -> this.ran.add("workflow.started"));
		AfterCommit.run(() -> this.ran.add("wake callbacks"));
		AfterCommit.tell(() -> this.ran.add("workflow.step_completed"));
		assertThat(this.ran).isEmpty();
		TransactionSynchronizationUtils.triggerAfterCommit();
		assertThat(this.ran).containsExactly("workflow.started", "workflow.step_completed", "wake jobs",
				"wake callbacks");
	}

	@Test
	void nothingRunsWhenTheTransactionRollsBack() {
		TransactionSynchronizationManager.initSynchronization();
		AfterCommit.run(() -> this.ran.add("wake"));
		AfterCommit.tell(() -> this.ran.add("event"));
		TransactionSynchronizationUtils.triggerAfterCompletion(TransactionSynchronization.STATUS_ROLLED_BACK);
		assertThat(this.ran).isEmpty();
	}

	@Test
	void withoutATransactionBothRunAtOnce() {
		AfterCommit.run(() -> this.ran.add("wake"));
		AfterCommit.tell(() -> this.ran.add("event"));
		assertThat(this.ran).containsExactly("wake", "event");
	}

}

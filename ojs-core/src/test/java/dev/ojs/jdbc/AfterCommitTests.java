package dev.ojs.jdbc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

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

	/**
	 * An action that an after-commit action registers (a chain's next step activated, whose
	 * wake-up tells the node's listeners after the commit) runs at once: Spring runs no
	 * synchronization registered while it runs those of a commit.
	 */
	@Test
	void whatAnAfterCommitActionRegistersRunsAtOnce() {
		TransactionSynchronizationManager.initSynchronization();
		AfterCommit.run(() -> {
			this.ran.add("activated");
			AfterCommit.run(() -> this.ran.add("listeners told"));
		});
		TransactionSynchronizationUtils.triggerAfterCommit();
		assertThat(this.ran).containsExactly("activated", "listeners told");
		TransactionSynchronizationManager.clearSynchronization();
		TransactionSynchronizationManager.initSynchronization();
		AfterCommit.run(() -> this.ran.add("next transaction"));
		assertThat(this.ran).as("registered, not run, once the commit's actions ran").hasSize(2);
	}

	/**
	 * A new transaction that an after-commit action begins (a listener's, with
	 * {@code REQUIRES_NEW}) runs its own after-commit actions after its own commit.
	 */
	@Test
	void aTransactionBegunAfterACommitWaitsForItsOwnCommit() {
		TransactionSynchronizationManager.initSynchronization();
		AfterCommit.run(() -> {
			List<TransactionSynchronization> suspended = TransactionSynchronizationManager.getSynchronizations();
			TransactionSynchronizationManager.clearSynchronization();
			TransactionSynchronizationManager.initSynchronization();
			AfterCommit.run(() -> this.ran.add("inner wake"));
			assertThat(this.ran).as("before the inner commit").isEmpty();
			TransactionSynchronizationUtils.triggerAfterCommit();
			TransactionSynchronizationManager.clearSynchronization();
			TransactionSynchronizationManager.initSynchronization();
			suspended.forEach(TransactionSynchronizationManager::registerSynchronization);
		});
		TransactionSynchronizationUtils.triggerAfterCommit();
		assertThat(this.ran).containsExactly("inner wake");
	}

	/**
	 * A transaction holds one synchronization per order, however many actions it registers (a
	 * completion of hundreds of workflow steps): Spring sorts every synchronization of a
	 * transaction at each phase of its commit.
	 */
	@Test
	void aTransactionHoldsOneSynchronizationPerOrderWhateverItsActions() {
		TransactionSynchronizationManager.initSynchronization();
		for (int i = 0; i < 100; i++) {
			String n = String.valueOf(i);
			AfterCommit.run(() -> this.ran.add("wake " + n));
			AfterCommit.tell(() -> this.ran.add("event " + n));
		}
		List<String> expected = new java.util.ArrayList<>();
		IntStream.range(0, 100).forEach((i) -> expected.add("event " + i));
		IntStream.range(0, 100).forEach((i) -> expected.add("wake " + i));
		assertThat(TransactionSynchronizationManager.getSynchronizations()).hasSize(2);
		TransactionSynchronizationUtils.triggerAfterCommit();
		assertThat(this.ran).containsExactlyElementsOf(expected);
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

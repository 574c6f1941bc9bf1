package dev.ojs.jdbc;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Runs what must wait until other connections see the store's writes. */
final class AfterCommit {

	private AfterCommit() {
	}

	/**
	 * Runs {@code action} once the caller's transaction commits (never, if it rolls back), or
	 * now without one: other connections see this store's writes only then.
	 */
	static void run(Runnable action) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					action.run();
				}
			});
		}
		else {
			action.run();
		}
	}

}

package dev.ojs.jdbc;

import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs what must wait until other connections see the store's writes. Of one commit, the
 * listeners are told first ({@link #tell}) and the workers woken after ({@link #run}), so a
 * node publishes a transition (a workflow started) before its workers can act on it (a step
 * completed). What an after-commit action registers in turn runs at once: the commit it waited
 * for has happened, and Spring would not run it.
 */
final class AfterCommit {

	/** The after-commit action this thread runs, if any. */
	private static final ThreadLocal<@Nullable TransactionSynchronization> running = new ThreadLocal<>();

	private AfterCommit() {
	}

	/**
	 * Runs {@code action} once the caller's transaction commits (never, if it rolls back), or
	 * now without one: other connections see this store's writes only then.
	 */
	static void run(Runnable action) {
		run(action, Ordered.LOWEST_PRECEDENCE);
	}

	/** Like {@link #run}, before every {@link #run} action of the same commit: tells a listener. */
	static void tell(Runnable notice) {
		run(notice, Ordered.HIGHEST_PRECEDENCE);
	}

	private static void run(Runnable action, int order) {
		if (TransactionSynchronizationManager.isSynchronizationActive() && !committing()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public int getOrder() {
					return order;
				}

				@Override
				public void afterCommit() {
					TransactionSynchronization outer = running.get();
					running.set(this);
					try {
						action.run();
					}
					finally {
						running.set(outer);
					}
				}
			});
		}
		else {
			action.run();
		}
	}

	/**
	 * Whether the transaction this thread is in has committed and runs its after-commit actions
	 * (one of them registers), rather than a new transaction that one of them began.
	 */
	private static boolean committing() {
		TransactionSynchronization action = running.get();
		return action != null && TransactionSynchronizationManager.getSynchronizations().contains(action);
	}

}

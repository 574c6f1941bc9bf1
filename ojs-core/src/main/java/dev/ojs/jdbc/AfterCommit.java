package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.List;

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

	/** The after-commit actions this thread runs, if any. */
	private static final ThreadLocal<@Nullable Actions> running = new ThreadLocal<>();

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
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			action.run();
			return;
		}
		List<TransactionSynchronization> registered = TransactionSynchronizationManager.getSynchronizations();
		if (committing(registered)) {
			action.run();
			return;
		}
		actions(registered, order).actions.add(action);
	}

	/**
	 * The actions of this order that the transaction this thread is in holds, registered now if it
	 * holds none: one synchronization per order, however many actions (Spring sorts every
	 * synchronization of a transaction each time it runs them, four times per commit).
	 */
	private static Actions actions(List<TransactionSynchronization> registered, int order) {
		for (TransactionSynchronization synchronization : registered) {
			if (synchronization instanceof Actions actions && actions.order == order) {
				return actions;
			}
		}
		Actions actions = new Actions(order);
		TransactionSynchronizationManager.registerSynchronization(actions);
		return actions;
	}

	/**
	 * Whether the transaction this thread is in has committed and runs its after-commit actions
	 * (one of them registers), rather than a new transaction that one of them began.
	 */
	private static boolean committing(List<TransactionSynchronization> registered) {
		Actions actions = running.get();
		return actions != null && registered.contains(actions);
	}

	/** The after-commit actions of one order of one transaction, run in the order they came. */
	private static final class Actions implements TransactionSynchronization {

		private final int order;

		private final List<Runnable> actions = new ArrayList<>();

		private Actions(int order) {
			this.order = order;
		}

		@Override
		public int getOrder() {
			return this.order;
		}

		@Override
		public void afterCommit() {
			Actions outer = running.get();
			running.set(this);
			try {
				for (Runnable action : this.actions) {
					action.run();
				}
			}
			finally {
				running.set(outer);
			}
		}

	}

}

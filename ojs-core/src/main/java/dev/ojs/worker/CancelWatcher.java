package dev.ojs.worker;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Tells this node's attempts that their job was cancelled (ojs-core.md §7.6): every poll
 * interval, on a thread of its own and only while the node holds attempts, it asks the store
 * in one query which of them were cancelled, and {@linkplain LocalAttempt#cancel() cancels}
 * those: the handler sees {@link Attempt#isCancelled()} and, when its registration asks,
 * is interrupted; its outcome is not written.
 */
final class CancelWatcher {

	private final WorkerStore store;

	private final LocalAttempts attempts;

	private final PeriodicTask task;

	CancelWatcher(WorkerStore store, String nodeId, LocalAttempts attempts, Duration pollInterval) {
		this.store = store;
		this.attempts = attempts;
		this.task = new PeriodicTask("ojs-cancels-" + nodeId, this::check,
				Durations.atLeast(Durations.MIN_INTERVAL, pollInterval));
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	void check() {
		List<LocalAttempt> held = this.attempts.all()
			.stream()
			.filter((attempt) -> !attempt.isCancelled() && !attempt.isReservationLost())
			.toList();
		if (held.isEmpty()) {
			return;
		}
		Set<String> cancelled = this.store.cancelled(held.stream().map(LocalAttempt::job).toList());
		held.stream().filter((attempt) -> cancelled.contains(attempt.id())).forEach(LocalAttempt::cancel);
	}

}

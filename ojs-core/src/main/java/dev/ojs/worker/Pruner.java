package dev.ojs.worker;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Deletes finished jobs past their retention ({@link RetentionSettings}) every
 * {@link RetentionSettings#pruneInterval()}, for at most {@link #BUDGET} per run; the next
 * run continues.
 */
final class Pruner {

	static final Duration BUDGET = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(Pruner.class);

	private final WorkerStore store;

	private final RetentionSettings retention;

	private final PeriodicTask task;

	Pruner(WorkerStore store, String nodeId, RetentionSettings retention) {
		this.store = store;
		this.retention = retention;
		this.task = new PeriodicTask("ojs-pruner-" + nodeId, this::prune, retention.pruneInterval());
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	void prune() {
		long deleted = this.store.prune(this.retention, BUDGET);
		if (deleted > 0 && logger.isDebugEnabled()) {
			logger.debug("OJS pruned " + deleted + " finished jobs");
		}
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Deletes finished jobs past their retention ({@link RetentionSettings}) every
 * {@link RetentionSettings#pruneInterval()}, in slices of at most {@link #BUDGET}: a slice
 * that used its whole budget stopped with rows left, so the next one follows at once, for
 * up to half the interval. So the table stops growing once the retention window has passed,
 * also when jobs finish faster than one slice a minute deletes.
 */
final class Pruner {

	static final Duration BUDGET = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(Pruner.class);

	private final WorkerStore store;

	private final RetentionSettings retention;

	private final PeriodicTask task;

	private final LongSupplier nanoTime;

	Pruner(WorkerStore store, String nodeId, RetentionSettings retention) {
		this(store, nodeId, retention, System::nanoTime);
	}

	Pruner(WorkerStore store, String nodeId, RetentionSettings retention, LongSupplier nanoTime) {
		this.store = store;
		this.retention = retention;
		this.nanoTime = nanoTime;
		this.task = new PeriodicTask("ojs-pruner-" + nodeId, this::prune, retention.pruneInterval());
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	void prune() {
		long end = this.nanoTime.getAsLong() + this.retention.pruneInterval().toNanos() / 2;
		long deleted = 0;
		long slice;
		long started;
		do {
			started = this.nanoTime.getAsLong();
			slice = this.store.prune(this.retention, BUDGET);
			deleted += slice;
		}
		while (slice > 0 && this.nanoTime.getAsLong() - started >= BUDGET.toNanos() && this.nanoTime.getAsLong() < end
				&& !Thread.currentThread().isInterrupted());
		if (deleted > 0 && logger.isDebugEnabled()) {
			logger.debug("OJS pruned " + deleted + " finished jobs");
		}
	}

}

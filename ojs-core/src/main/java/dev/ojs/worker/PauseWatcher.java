package dev.ojs.worker;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Keeps this node's pollers in step with the paused queues (ojs-queue-config.md §5.1,
 * ojs-admin-api.md §6.3/6.4): every poll interval, on a thread of its own, it reads the paused
 * queues in one query and pauses or resumes each served queue's {@link QueuePoller}, so a
 * pause or resume from any node takes effect here within one poll interval (plus that
 * query). It also reads once before the pollers start, so a pause outlives restarts, and
 * when told that this node paused or resumed a queue. When a read fails, the pollers keep
 * the state last read.
 */
final class PauseWatcher {

	private static final Log logger = LogFactory.getLog(PauseWatcher.class);

	private final WorkerStore store;

	private final Map<String, QueuePoller> pollers;

	private final PeriodicTask task;

	PauseWatcher(WorkerStore store, String nodeId, Map<String, QueuePoller> pollers, Duration pollInterval) {
		this.store = store;
		this.pollers = pollers;
		this.task = new PeriodicTask("ojs-pauses-" + nodeId, this::refreshNow,
				Durations.atLeast(Durations.MIN_INTERVAL, pollInterval));
	}

	/**
	 * Reads the paused queues now: on schedule, before the pollers start, or when this node
	 * paused or resumed a queue. A failure is logged, and the pollers keep their state
	 * (unpaused at start) until the next read, one poll interval later.
	 */
	void refreshNow() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			logger.warn("OJS could not read which queues are paused; the pollers keep their state until it can: " + ex);
		}
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	/** One read and its effect at a time, so an older read never undoes a newer one. */
	synchronized void refresh() {
		if (this.pollers.isEmpty()) {
			return;
		}
		Set<String> paused = this.store.pausedQueues();
		this.pollers.forEach((queue, poller) -> poller.paused(paused.contains(queue)));
	}

}

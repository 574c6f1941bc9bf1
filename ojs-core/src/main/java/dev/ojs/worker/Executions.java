package dev.ojs.worker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The attempts this node holds, from claim until their outcome is written: what the
 * {@link Heartbeater} extends and what shutdown releases or fails.
 */
final class Executions {

	private static final Log logger = LogFactory.getLog(Executions.class);

	private final Map<String, Execution> byKey = new ConcurrentHashMap<>();

	Execution track(Execution execution) {
		this.byKey.put(execution.key(), execution);
		return execution;
	}

	void untrack(Execution execution) {
		this.byKey.remove(execution.key(), execution);
	}

	Collection<Execution> all() {
		return this.byKey.values();
	}

	/** Moves every attempt in state {@code from} to {@code to}, and returns them. */
	List<Execution> transition(int from, int to) {
		List<Execution> moved = new ArrayList<>();
		for (Execution execution : this.byKey.values()) {
			if (execution.transition(from, to)) {
				moved.add(execution);
			}
		}
		return moved;
	}

	/**
	 * Returns the attempts claimed here that have not started to the store, attempt not
	 * consumed, and stops tracking them; their handler threads find them released and free
	 * their slots.
	 * @return how many were released
	 */
	int releaseUnstarted(WorkerStore store) {
		List<Execution> unstarted = transition(Execution.CLAIMED, Execution.RELEASED);
		if (unstarted.isEmpty()) {
			return 0;
		}
		int released = 0;
		try {
			released = store.release(unstarted.stream().map(Execution::job).toList()).size();
		}
		catch (RuntimeException ex) {
			logger.warn("OJS could not release " + unstarted.size()
					+ " unstarted jobs; they come back after their visibility timeout: " + ex);
		}
		unstarted.forEach(this::untrack);
		return released;
	}

	void clear() {
		this.byKey.clear();
	}

}

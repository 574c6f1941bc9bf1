package dev.ojs.worker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The attempts this node holds, from claim until their outcome is written: what the
 * {@link Heartbeater} extends and what shutdown releases or fails.
 */
final class Executions {

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

	void clear() {
		this.byKey.clear();
	}

}

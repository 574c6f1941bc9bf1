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
final class LocalAttempts {

	private static final Log logger = LogFactory.getLog(LocalAttempts.class);

	private final Map<String, LocalAttempt> byKey = new ConcurrentHashMap<>();

	LocalAttempt track(LocalAttempt attempt) {
		this.byKey.put(attempt.key(), attempt);
		return attempt;
	}

	void untrack(LocalAttempt attempt) {
		this.byKey.remove(attempt.key(), attempt);
	}

	Collection<LocalAttempt> all() {
		return this.byKey.values();
	}

	/** Moves every attempt in state {@code from} to {@code to}, and returns them. */
	List<LocalAttempt> transition(int from, int to) {
		List<LocalAttempt> moved = new ArrayList<>();
		for (LocalAttempt attempt : this.byKey.values()) {
			if (attempt.transition(from, to)) {
				moved.add(attempt);
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
		List<LocalAttempt> unstarted = transition(LocalAttempt.CLAIMED, LocalAttempt.RELEASED);
		if (unstarted.isEmpty()) {
			return 0;
		}
		int released = 0;
		try {
			released = store.release(unstarted.stream().map(LocalAttempt::job).toList()).size();
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

package dev.ojs.worker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The handler slots of one node: the only place they are taken and given back.
 * <p>
 * A queue of concurrency {@code n} runs at most {@code n} handlers at once. An attempt holds
 * its slot from its claim until its outcome is written (or rejected, or given up), and at
 * most another {@code n} outcomes may wait for the completer, so a queue never holds more
 * than {@code 2n} reservations. A type with its own concurrency ({@link ClaimGroup#limit})
 * is limited per node across every queue it is claimed from. Pollers are told when slots
 * they wait for come free.
 */
final class Slots {

	/** One served queue's counters. */
	private static final class Queue {

		final int concurrency;

		/** Attempts whose handler has not returned. */
		final AtomicInteger running = new AtomicInteger();

		/** Attempts claimed whose outcome is not yet written. */
		final AtomicInteger held = new AtomicInteger();

		volatile Runnable onFree = () -> {
		};

		Queue(int concurrency) {
			this.concurrency = concurrency;
		}

	}

	private final Map<String, Queue> queues = new ConcurrentHashMap<>();

	private final Map<ClaimGroup, AtomicInteger> groupHeld = new ConcurrentHashMap<>();

	private final Map<String, ClaimGroup> groupByType = new ConcurrentHashMap<>();

	/** A group that refused a poller since slots were last freed: wake every poller on release. */
	private final Map<ClaimGroup, Boolean> refused = new ConcurrentHashMap<>();

	Slots(Map<String, Integer> concurrencyByQueue, List<ClaimGroup> groups) {
		concurrencyByQueue.forEach((queue, concurrency) -> this.queues.put(queue, new Queue(concurrency)));
		for (ClaimGroup group : groups) {
			if (group.limit > 0) {
				this.groupHeld.put(group, new AtomicInteger());
				group.visibilityByType.keySet().forEach((type) -> this.groupByType.put(type, group));
			}
		}
	}

	/** Calls {@code onFree} whenever slots of {@code queue} (or of a group that refused it) come free. */
	void onFree(String queue, Runnable onFree) {
		this.queues.get(queue).onFree = onFree;
	}

	/** Attempts {@code queue} may claim now: a free handler each, while fewer than {@code n} outcomes wait. */
	int free(String queue) {
		Queue slots = this.queues.get(queue);
		return Math.min(slots.concurrency - slots.running.get(), 2 * slots.concurrency - slots.held.get());
	}

	/** Handlers of {@code queue} running now. */
	int running(String queue) {
		Queue slots = this.queues.get(queue);
		return (slots != null) ? slots.running.get() : 0;
	}

	/** Handlers running now, on every queue. */
	int running() {
		return this.queues.values().stream().mapToInt((slots) -> slots.running.get()).sum();
	}

	/** Takes up to {@code wanted} of {@code group}'s slots for a claim: all without a limit. */
	int reserve(ClaimGroup group, int wanted) {
		AtomicInteger held = this.groupHeld.get(group);
		if (held == null || wanted <= 0) {
			return Math.max(0, wanted);
		}
		int before = held.getAndUpdate((value) -> value + Math.max(0, Math.min(wanted, group.limit - value)));
		int granted = Math.max(0, Math.min(wanted, group.limit - before));
		if (granted == 0) {
			this.refused.put(group, Boolean.TRUE);
		}
		return granted;
	}

	/** A claim of {@code queue} for {@code reserved} slots of {@code group} took {@code claimed} jobs. */
	void claimed(String queue, ClaimGroup group, int reserved, int claimed) {
		releaseGroup(group, reserved - claimed);
		Queue slots = this.queues.get(queue);
		slots.held.addAndGet(claimed);
		slots.running.addAndGet(claimed);
	}

	/**
	 * The handler of {@code execution} returned, or the attempt ended before it ran.
	 * @param outcomeQueued whether an outcome waits for the completer, which frees the slot
	 * once written; otherwise the slot is free now
	 */
	void handlerReturned(Execution execution, boolean outcomeQueued) {
		Queue slots = this.queues.get(execution.claimedFrom());
		slots.running.decrementAndGet();
		if (outcomeQueued) {
			slots.onFree.run();
		}
		else {
			free(execution);
		}
	}

	/** The attempt's outcome was written, rejected or given up: its slot is free. */
	void free(Execution execution) {
		Queue slots = this.queues.get(execution.claimedFrom());
		slots.held.decrementAndGet();
		ClaimGroup group = this.groupByType.get(execution.job().type());
		if (group != null) {
			releaseGroup(group, 1);
		}
		slots.onFree.run();
	}

	private void releaseGroup(ClaimGroup group, int count) {
		AtomicInteger held = this.groupHeld.get(group);
		if (held == null || count <= 0) {
			return;
		}
		held.addAndGet(-count);
		if (this.refused.remove(group) != null) {
			this.queues.values().forEach((slots) -> slots.onFree.run());
		}
	}

}

package dev.ojs.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.ojs.job.Job;

/**
 * Hands the slots of completed attempts over to the next jobs of their queues, where the store
 * says so ({@link WorkerStore#handsOverSlots}: queues with a concurrency limit on all nodes):
 * the completer claims them in the completions' own transaction, for as many slots as the
 * completions free and its pollers have free, so a slot goes from one job to the next with one
 * commit, and without another turn on the limit. What a refill does not take, the queue's
 * poller claims as before.
 */
final class Refills {

	private final WorkerStore store;

	private final Supplier<Map<String, QueuePoller>> pollers;

	Refills(WorkerStore store, Supplier<Map<String, QueuePoller>> pollers) {
		this.store = store;
		this.pollers = pollers;
	}

	/** Takes slots for the refills of these completions' queues, in queue name order (the order their rows lock in). */
	List<WorkerStore.Refill> take(List<Completer.Outcome> completions) {
		SortedMap<String, Integer> freed = new TreeMap<>();
		completions.forEach((outcome) -> freed.merge(outcome.attempt().claimedFrom(), 1, Integer::sum));
		List<WorkerStore.Refill> refills = new ArrayList<>(freed.size());
		Map<String, QueuePoller> pollers = this.pollers.get();
		freed.forEach((queue, count) -> {
			QueuePoller poller = pollers.get(queue);
			WorkerStore.Refill refill = (poller != null && this.store.handsOverSlots(queue)) ? poller.refill(count)
					: null;
			if (refill != null) {
				refills.add(refill);
			}
		});
		return refills;
	}

	/**
	 * The refills claimed these jobs (by refill; none when the write failed): runs them and
	 * gives back the slots they did not use.
	 */
	void claimed(List<WorkerStore.Refill> refills, List<List<Job>> claimed) {
		Map<String, QueuePoller> pollers = this.pollers.get();
		for (int i = 0; i < refills.size(); i++) {
			WorkerStore.Refill refill = refills.get(i);
			pollers.get(refill.queue()).refilled(refill, (i < claimed.size()) ? claimed.get(i) : List.of());
		}
	}

}

package dev.ojs.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.ojs.job.Job;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.workflow.WorkflowType;

/**
 * Hands the slots of completed attempts over to the next jobs of their queues: the completer
 * claims them in the completions' own transaction, for as many slots as the completions free
 * and its pollers have free, so a slot goes from one job to the next with one commit, without
 * another turn on a limit or a wake-up. Where the store says so ({@link WorkerStore#handsOverSlots}:
 * queues with a concurrency limit on all nodes) every completion hands its slot over; elsewhere
 * a chain's step does, whose next step its completion makes available, while its queue has no
 * more jobs waiting than its poller had slots at its last look (with a backlog the poller claims
 * in batches). What a refill does not take, the queue's poller claims as before.
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
		SortedMap<String, List<Job>> byQueue = new TreeMap<>();
		completions.forEach((outcome) -> byQueue.computeIfAbsent(outcome.attempt().claimedFrom(),
				(queue) -> new ArrayList<>()).add(outcome.job()));
		List<WorkerStore.Refill> refills = new ArrayList<>(byQueue.size());
		Map<String, QueuePoller> pollers = this.pollers.get();
		byQueue.forEach((queue, jobs) -> {
			QueuePoller poller = pollers.get(queue);
			int count = (poller == null) ? 0 : this.store.handsOverSlots(queue) ? jobs.size()
					: poller.drained() ? (int) jobs.stream().filter(Refills::isChainStep).count() : 0;
			WorkerStore.Refill refill = (count > 0) ? poller.refill(count) : null;
			if (refill != null) {
				refills.add(refill);
			}
		});
		return refills;
	}

	private static boolean isChainStep(Job job) {
		WorkflowPlace place = job.workflowPlace();
		return place != null && !place.isCallback() && WorkflowType.CHAIN.value().equals(place.type());
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

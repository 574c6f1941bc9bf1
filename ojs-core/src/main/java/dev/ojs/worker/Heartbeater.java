package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;

/**
 * Keeps this node's reservations (spec §9.3, RET-13): every third of the shortest
 * visibility timeout, on a thread of its own, it extends each held attempt whose remaining
 * time has dropped below two thirds of its timeout, in one statement per timeout. When fewer
 * were extended than asked, it marks the attempts whose reservation is gone, or whose job was
 * cancelled.
 */
final class Heartbeater {

	private final WorkerStore store;

	private final String nodeId;

	private final Executions executions;

	private final PeriodicTask task;

	private final OutcomeEvents events;

	Heartbeater(WorkerStore store, String nodeId, Executions executions, Duration shortestVisibility,
			OutcomeEvents events) {
		this.store = store;
		this.events = events;
		this.nodeId = nodeId;
		this.executions = executions;
		this.task = new PeriodicTask("ojs-heartbeat-" + nodeId, this::heartbeat,
				Durations.atLeast(Durations.MIN_INTERVAL, shortestVisibility.dividedBy(3)));
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	void heartbeat() {
		Instant now = this.store.now();
		Map<Duration, List<Execution>> due = new HashMap<>();
		for (Execution execution : this.executions.all()) {
			if (execution.isReservationLost() || execution.isCancelled()) {
				continue;
			}
			Duration timeout = execution.visibilityTimeout();
			if (execution.lockedUntil() == null
					|| Duration.between(now, execution.lockedUntil()).compareTo(timeout.multipliedBy(2).dividedBy(3)) <= 0) {
				due.computeIfAbsent(timeout, (key) -> new ArrayList<>()).add(execution);
			}
		}
		due.forEach((timeout, attempts) -> extend(attempts, Timestamps.plus(now, timeout)));
	}

	private void extend(List<Execution> attempts, Instant until) {
		int extended = this.store.heartbeat(this.nodeId, attempts.stream().map(Execution::id).toList(), until);
		attempts.forEach((execution) -> execution.extendedTo(until));
		if (extended == attempts.size()) {
			attempts.forEach((execution) -> this.events.heartbeat(execution.job(), until));
		}
		else {
			Set<String> held = this.store.reservationsHeld(attempts.stream().map(Execution::job).toList())
				.stream()
				.map(Job::id)
				.collect(Collectors.toSet());
			attempts.stream()
				.filter((execution) -> held.contains(execution.id()))
				.forEach((execution) -> this.events.heartbeat(execution.job(), until));
			List<Execution> gone = attempts.stream().filter((execution) -> !held.contains(execution.id())).toList();
			Set<String> cancelled = gone.isEmpty() ? Set.of()
					: this.store.cancelled(gone.stream().map(Execution::job).toList());
			for (Execution execution : gone) {
				if (cancelled.contains(execution.id())) {
					execution.cancel();
				}
				else {
					execution.reservationLost();
				}
			}
		}
	}

}

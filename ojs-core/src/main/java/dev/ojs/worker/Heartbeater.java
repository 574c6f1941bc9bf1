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

	private final LocalAttempts attempts;

	private final PeriodicTask task;

	private final OutcomeEvents events;

	Heartbeater(WorkerStore store, String nodeId, LocalAttempts attempts, Duration shortestVisibility,
			OutcomeEvents events) {
		this.store = store;
		this.events = events;
		this.nodeId = nodeId;
		this.attempts = attempts;
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
		Map<Duration, List<LocalAttempt>> due = new HashMap<>();
		for (LocalAttempt attempt : this.attempts.all()) {
			if (attempt.isReservationLost() || attempt.isCancelled()) {
				continue;
			}
			Duration timeout = attempt.visibilityTimeout();
			if (attempt.lockedUntil() == null
					|| Duration.between(now, attempt.lockedUntil())
						.compareTo(timeout.multipliedBy(2).dividedBy(3)) <= 0) {
				due.computeIfAbsent(timeout, (key) -> new ArrayList<>()).add(attempt);
			}
		}
		due.forEach((timeout, attempts) -> extend(attempts, Timestamps.plus(now, timeout)));
	}

	private void extend(List<LocalAttempt> attempts, Instant until) {
		int extended = this.store.heartbeat(this.nodeId, attempts.stream().map(LocalAttempt::id).toList(), until);
		attempts.forEach((attempt) -> attempt.extendedTo(until));
		if (extended == attempts.size()) {
			attempts.forEach((attempt) -> this.events.heartbeat(attempt.job(), until));
		}
		else {
			Set<String> held = this.store.reservationsHeld(attempts.stream().map(LocalAttempt::job).toList())
				.stream()
				.map(Job::id)
				.collect(Collectors.toSet());
			attempts.stream()
				.filter((attempt) -> held.contains(attempt.id()))
				.forEach((attempt) -> this.events.heartbeat(attempt.job(), until));
			List<LocalAttempt> gone = attempts.stream().filter((attempt) -> !held.contains(attempt.id())).toList();
			Set<String> cancelled = gone.isEmpty() ? Set.of()
					: this.store.cancelled(gone.stream().map(LocalAttempt::job).toList());
			for (LocalAttempt attempt : gone) {
				if (cancelled.contains(attempt.id())) {
					attempt.cancel();
				}
				else {
					attempt.reservationLost();
				}
			}
		}
	}

}

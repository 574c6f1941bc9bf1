package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;

/**
 * The reservation a claimed job gets from its own timeouts: its visibility timeout when the
 * claim lets it replace the claim's (a fetch that names none), and never past its execution
 * timeout (ojs-timeouts.md §3.1: the attempt fails then). Only the jobs whose reservation
 * changes are written again, so jobs without timeouts of their own cost nothing more.
 */
final class Reservations {

	private Reservations() {
	}

	/**
	 * The claimed jobs with their reservations; those changed are passed to {@code write}
	 * first (guarded by attempt and owner).
	 */
	static List<Job> adjust(List<Job> claimed, boolean jobVisibilityWins, Instant now, Consumer<List<Job>> write) {
		List<Job> changed = null;
		List<Job> result = claimed;
		for (int i = 0; i < claimed.size(); i++) {
			Job job = claimed.get(i);
			Instant lockedUntil = lockedUntil(job, jobVisibilityWins, now);
			if (job.lockedUntil() != null && !lockedUntil.equals(job.lockedUntil())) {
				if (changed == null) {
					changed = new ArrayList<>();
					result = new ArrayList<>(claimed);
				}
				Job reserved = withLockedUntil(job, lockedUntil);
				changed.add(reserved);
				result.set(i, reserved);
			}
		}
		if (changed != null) {
			write.accept(changed);
		}
		return result;
	}

	/** The end of a just-claimed job's reservation. */
	static Instant lockedUntil(Job job, boolean jobVisibilityWins, Instant now) {
		Instant until = job.lockedUntil();
		Duration own = job.visibilityTimeout();
		if (jobVisibilityWins && own != null) {
			until = Timestamps.plus(now, own);
		}
		Instant start = (job.startedAt() != null) ? job.startedAt() : now;
		Duration timeout = job.timeout();
		if (timeout != null) {
			Instant deadline = Timestamps.plus(start, timeout);
			if (until == null || deadline.isBefore(until)) {
				until = deadline;
			}
		}
		return (until != null) ? until : now;
	}

	private static Job withLockedUntil(Job job, Instant lockedUntil) {
		return new Job(job.id(), job.type(), job.queue(), job.argsJson(), job.metaJson(), job.priority(), job.state(),
				job.attempt(), job.maxAttempts(), job.retryPolicy(), job.errors(), job.deadLetter(), job.uniqueKey(),
				job.scheduledAt(), job.createdAt(), job.enqueuedAt(), job.startedAt(), job.completedAt(),
				job.discardedAt(), job.lockedBy(), lockedUntil, job.expiresAt(), job.timeout(),
				job.visibilityTimeout(), job.workflowId(), job.workflowPlace(), job.parentResultsJson(),
				job.sequenceKey());
	}

}

package dev.ojs.admin;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;

/**
 * A queue as the Admin API lists it (ojs-admin-api.md §6.1).
 *
 * @param name the queue
 * @param counts jobs per state (dead letters included in {@code discarded})
 * @param deadLetters dead letters
 * @param oldestAvailableAt when the oldest ready job became due, or {@code null} when none
 * @param paused whether it is paused
 * @param pausedAt when it was paused
 * @param countsEstimated whether the counts of terminal states and dead letters are the
 * planner's estimates (too many jobs to count them quickly)
 */
public record QueueSummary(String name, Map<JobState, Long> counts, long deadLetters,
		@Nullable Instant oldestAvailableAt, boolean paused, @Nullable Instant pausedAt, boolean countsEstimated) {

	public QueueSummary {
		counts = Map.copyOf(counts);
	}

	public long count(JobState state) {
		return this.counts.getOrDefault(state, 0L);
	}

}

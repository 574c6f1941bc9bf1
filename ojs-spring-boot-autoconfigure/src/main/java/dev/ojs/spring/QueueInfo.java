package dev.ojs.spring;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;

/**
 * A queue as {@link OjsQueues#queues()} shows it (ojs-admin-api.md §6.1).
 *
 * @param name the queue name
 * @param paused whether it is paused: no worker claims its jobs
 * @param pausedAt when it was paused, or {@code null} when it is not
 * @param counts its jobs per state, every state present (0 when it has none); dead letters
 * are {@code discarded}
 * @param deadLetters how many of its {@code discarded} jobs are dead letters
 */
public record QueueInfo(String name, boolean paused, @Nullable Instant pausedAt, Map<JobState, Long> counts,
		long deadLetters) {

	public QueueInfo {
		counts = Map.copyOf(counts);
	}

	/** A queue without dead letters. */
	public QueueInfo(String name, boolean paused, @Nullable Instant pausedAt, Map<JobState, Long> counts) {
		this(name, paused, pausedAt, counts, 0);
	}

	/** Its jobs in a state. */
	public long count(JobState state) {
		return this.counts.getOrDefault(state, 0L);
	}

}

package dev.ojs.spring;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * A queue as {@link OjsQueues#queues()} shows it (ojs-admin-api.md §6.1).
 *
 * @param name the queue name
 * @param paused whether it is paused: no worker claims its jobs
 * @param pausedAt when it was paused, or {@code null} when it is not
 * @param counts its jobs per state, every state present (0 when it has none); dead letters
 * are {@code discarded}
 * @param deadLetters how many of its {@code discarded} jobs are dead letters
 * @param rateLimit its rate limit (ojs-queue-config.md §6.2), or {@code null} when it has none
 * @param concurrency most of its jobs active at once on all nodes (§6.2), or {@code null} when
 * it has no such limit
 */
public record QueueInfo(String name, boolean paused, @Nullable Instant pausedAt, Map<JobState, Long> counts,
		long deadLetters, @Nullable RateLimit rateLimit, @Nullable Integer concurrency) {

	public QueueInfo {
		counts = Map.copyOf(counts);
	}

	/** A queue without a concurrency limit. */
	public QueueInfo(String name, boolean paused, @Nullable Instant pausedAt, Map<JobState, Long> counts,
			long deadLetters, @Nullable RateLimit rateLimit) {
		this(name, paused, pausedAt, counts, deadLetters, rateLimit, null);
	}

	/** A queue without dead letters or a rate limit. */
	public QueueInfo(String name, boolean paused, @Nullable Instant pausedAt, Map<JobState, Long> counts) {
		this(name, paused, pausedAt, counts, 0, null);
	}

	/** Its stored state: paused or not, and its limits. */
	public QueueState state() {
		return new QueueState(this.name, this.paused, this.pausedAt, this.rateLimit, this.concurrency);
	}

	/** Its jobs in a state. */
	public long count(JobState state) {
		return this.counts.getOrDefault(state, 0L);
	}

}

package dev.ojs.job;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The stored state of a queue (ojs-queue-config.md §5.1): {@code active}, or {@code paused}.
 * No worker claims from a paused queue; enqueues into it succeed and its jobs wait.
 *
 * @param name the queue name
 * @param paused whether it is paused
 * @param pausedAt when it was paused, or {@code null} when it is not
 * @param rateLimit its rate limit (§6.2), or {@code null} when it has none
 * @param concurrency most of its jobs active at once on all nodes together (§6.2), or
 * {@code null} when it has no such limit
 */
public record QueueState(String name, boolean paused, @Nullable Instant pausedAt, @Nullable RateLimit rateLimit,
		@Nullable Integer concurrency) {

	/** The state of a queue without a concurrency limit. */
	public QueueState(String name, boolean paused, @Nullable Instant pausedAt, @Nullable RateLimit rateLimit) {
		this(name, paused, pausedAt, rateLimit, null);
	}

	/** The state of a queue without limits. */
	public QueueState(String name, boolean paused, @Nullable Instant pausedAt) {
		this(name, paused, pausedAt, null);
	}

	/** The state of a queue that was never paused. */
	public static QueueState active(String name) {
		return new QueueState(name, false, null);
	}

}

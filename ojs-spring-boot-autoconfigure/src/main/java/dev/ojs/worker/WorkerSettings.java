package dev.ojs.worker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a worker node claims and runs jobs.
 *
 * @param nodeId reservation owner id, at most 255 characters; {@code null} (or blank)
 * generates one (host, pid and a random part)
 * @param queues queue name (not blank) to its concurrency limit on this node (at least 1).
 * The node serves these queues and its handlers' queues (with {@code defaultConcurrency}
 * unless listed here), each for every job type it handles
 * @param pollInterval the longest an idle poller waits before looking again (it polls
 * sooner after work, and on PostgreSQL a NOTIFY wakes it at once)
 * @param visibilityTimeout default reservation length (spec §9), extended by heartbeats;
 * positive
 * @param shutdownGracePeriod how long running jobs may finish on shutdown; not negative
 * @param retention how long finished jobs and dead letters are kept
 * @param defaultConcurrency the concurrency of a handler's queue that {@code queues} does
 * not list (at least 1)
 * @throws IllegalArgumentException when a value is out of range
 */
public record WorkerSettings(String nodeId, Map<String, Integer> queues, Duration pollInterval,
		Duration visibilityTimeout, Duration shutdownGracePeriod, RetentionSettings retention,
		int defaultConcurrency) {

	/** Concurrency of a handler's queue that is not configured, unless given. */
	public static final int DEFAULT_QUEUE_CONCURRENCY = 10;

	public WorkerSettings {
		nodeId = (nodeId != null && !nodeId.isBlank()) ? nodeId : null;
		if (nodeId != null && nodeId.length() > 255) {
			throw new IllegalArgumentException("nodeId must have at most 255 characters, got " + nodeId.length());
		}
		Objects.requireNonNull(queues, "queues must not be null");
		queues.forEach((queue, concurrency) -> {
			if (queue == null || queue.isBlank()) {
				throw new IllegalArgumentException("Queue names must not be blank");
			}
			if (concurrency == null || concurrency < 1) {
				throw new IllegalArgumentException(
						"The concurrency of queue '" + queue + "' must be at least 1, got " + concurrency);
			}
		});
		queues = Map.copyOf(queues);
		RetentionSettings.positive("pollInterval", pollInterval);
		RetentionSettings.positive("visibilityTimeout", visibilityTimeout);
		RetentionSettings.notNegative("shutdownGracePeriod", shutdownGracePeriod);
		Objects.requireNonNull(retention, "retention must not be null");
		if (defaultConcurrency < 1) {
			throw new IllegalArgumentException("defaultConcurrency must be at least 1, got " + defaultConcurrency);
		}
	}

	/** Settings whose handler queues get {@value #DEFAULT_QUEUE_CONCURRENCY}. */
	public WorkerSettings(String nodeId, Map<String, Integer> queues, Duration pollInterval,
			Duration visibilityTimeout, Duration shutdownGracePeriod, RetentionSettings retention) {
		this(nodeId, queues, pollInterval, visibilityTimeout, shutdownGracePeriod, retention,
				DEFAULT_QUEUE_CONCURRENCY);
	}

	/** Queue {@code default} with concurrency 10, 1 s poll, 30 min visibility, 30 s grace. */
	public static WorkerSettings defaults() {
		return new WorkerSettings(null, Map.of("default", DEFAULT_QUEUE_CONCURRENCY), Duration.ofSeconds(1),
				Duration.ofMinutes(30), Duration.ofSeconds(30), RetentionSettings.defaults());
	}

}

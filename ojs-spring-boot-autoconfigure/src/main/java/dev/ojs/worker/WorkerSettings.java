package dev.ojs.worker;

import java.time.Duration;
import java.util.Map;

/**
 * How a worker node claims and runs jobs.
 *
 * @param nodeId reservation owner id; {@code null} generates one (host, pid and a random part)
 * @param queues queue name to its concurrency limit on this node. The node serves these
 * queues and its handlers' queues ({@link Worker#DEFAULT_QUEUE_CONCURRENCY} unless listed
 * here), each for every job type it handles
 * @param pollInterval the longest an idle poller waits before looking again (it polls
 * sooner after work, and on PostgreSQL a NOTIFY wakes it at once)
 * @param visibilityTimeout default reservation length (spec §9), extended by heartbeats
 * @param shutdownGracePeriod how long running jobs may finish on shutdown
 * @param retention how long finished jobs and dead letters are kept
 */
public record WorkerSettings(String nodeId, Map<String, Integer> queues, Duration pollInterval,
		Duration visibilityTimeout, Duration shutdownGracePeriod, RetentionSettings retention) {

	public WorkerSettings {
		queues = Map.copyOf(queues);
	}

	/** Queue {@code default} with concurrency 10, 1 s poll, 30 min visibility, 30 s grace. */
	public static WorkerSettings defaults() {
		return new WorkerSettings(null, Map.of("default", 10), Duration.ofSeconds(1), Duration.ofMinutes(30),
				Duration.ofSeconds(30), RetentionSettings.defaults());
	}

}

package dev.ojs.worker;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;

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
 * @param errorHistoryLimit how many of the most recent errors each job keeps (spec §10.1,
 * RET-15: at least {@value #MIN_ERROR_HISTORY})
 * @param retryPolicy this application's default retry policy (spec defaults &lt;
 * {@code ojs.retry.*}), for jobs whose handler this node lacks
 * @throws IllegalArgumentException when a value is out of range
 */
public record WorkerSettings(@Nullable String nodeId, Map<String, Integer> queues, Duration pollInterval,
		Duration visibilityTimeout, Duration shutdownGracePeriod, RetentionSettings retention,
		int defaultConcurrency, int errorHistoryLimit, RetryPolicy retryPolicy) {

	/**
	 * Concurrency of a handler's queue that is not configured, unless given. A claim takes the
	 * queue's free slots plus, for short jobs, a prefetch of up to eight times this
	 * ({@link Slots}), so a claim round trip carries many short jobs (BENCHMARKS.md).
	 */
	public static final int DEFAULT_QUEUE_CONCURRENCY = 32;

	/** The longest an idle poller waits before looking again, unless given. */
	public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

	/** Reservation length of an attempt (spec §9), unless given. */
	public static final Duration DEFAULT_VISIBILITY_TIMEOUT = Duration.ofMinutes(30);

	/** How long running jobs may finish on shutdown, unless given. */
	public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(30);

	/** RET-15: at least the 10 most recent errors are kept. */
	public static final int MIN_ERROR_HISTORY = 10;

	/** Errors kept per job, unless given. */
	public static final int DEFAULT_ERROR_HISTORY = 20;

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
		retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy must not be null").effective();
		if (errorHistoryLimit < MIN_ERROR_HISTORY) {
			throw new IllegalArgumentException("errorHistoryLimit must be at least " + MIN_ERROR_HISTORY
					+ " (spec §10.1), got " + errorHistoryLimit);
		}
	}

	/**
	 * Settings whose handler queues get {@value #DEFAULT_QUEUE_CONCURRENCY}, whose jobs keep
	 * {@value #DEFAULT_ERROR_HISTORY} errors, and whose default retry policy is the spec's.
	 */
	public WorkerSettings(@Nullable String nodeId, Map<String, Integer> queues, Duration pollInterval,
			Duration visibilityTimeout, Duration shutdownGracePeriod, RetentionSettings retention) {
		this(nodeId, queues, pollInterval, visibilityTimeout, shutdownGracePeriod, retention,
				DEFAULT_QUEUE_CONCURRENCY, DEFAULT_ERROR_HISTORY, RetryPolicy.DEFAULT);
	}

	/** Every default: queue {@value NewJob#DEFAULT_QUEUE} with the default concurrency, and the constants above. */
	public static WorkerSettings defaults() {
		return new WorkerSettings(null, Map.of(NewJob.DEFAULT_QUEUE, DEFAULT_QUEUE_CONCURRENCY), DEFAULT_POLL_INTERVAL,
				DEFAULT_VISIBILITY_TIMEOUT, DEFAULT_SHUTDOWN_GRACE_PERIOD, RetentionSettings.defaults());
	}

	/** The node id, or a generated one (host, pid and a random part) when none is set. */
	String nodeIdOrGenerated() {
		if (this.nodeId != null) {
			return this.nodeId;
		}
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			host = "localhost";
		}
		String random = Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36);
		return host + "-" + ProcessHandle.current().pid() + "-" + random.substring(0, Math.min(6, random.length()));
	}

}

package dev.ojs.recurring;

import java.time.Duration;
import java.util.Objects;

/**
 * How the evaluator of one node runs.
 *
 * @param nodeId this node, as the lease names it
 * @param interval time between evaluations: at least one second (CRON-24)
 * @param leaseTtl how long the lease lasts without renewal: a dead evaluator's successor
 * takes over after at most this long (CRON-22); more than twice the interval
 * @param batchSize due recurring jobs read per query
 */
public record RecurringJobSettings(String nodeId, Duration interval, Duration leaseTtl, int batchSize) {

	/** Default {@link #interval()}. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

	/** Default {@link #leaseTtl()}: failover within 30 s (CRON-S05). */
	public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(15);

	/** Default {@link #batchSize()}. */
	public static final int DEFAULT_BATCH_SIZE = 500;

	public RecurringJobSettings {
		Objects.requireNonNull(nodeId, "nodeId must not be null");
		if (interval == null || interval.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("The evaluation interval must be at least 1s (CRON-24): " + interval);
		}
		if (leaseTtl == null || leaseTtl.compareTo(interval.multipliedBy(2)) <= 0) {
			throw new IllegalArgumentException(
					"The lease must last more than twice the evaluation interval " + interval + ": " + leaseTtl);
		}
		if (batchSize < 1) {
			throw new IllegalArgumentException("The batch size must be positive: " + batchSize);
		}
	}

}

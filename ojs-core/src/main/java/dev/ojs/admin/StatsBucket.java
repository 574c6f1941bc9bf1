package dev.ojs.admin;

import java.time.Instant;

/**
 * Outcome counters of one queue over one period (ojs-admin-api.md §10.2).
 *
 * @param start the period's first instant
 * @param queue the queue, or {@code "*"} when summed over queues
 * @param completed attempts that succeeded
 * @param failed attempts that failed, whatever came next
 * @param retried failed attempts that will be retried
 * @param deadLettered failed attempts that moved their job to the dead letter queue
 * @param discarded failed attempts that discarded their job (dead letters excluded)
 */
public record StatsBucket(Instant start, String queue, long completed, long failed, long retried, long deadLettered,
		long discarded) {

	/** Completed plus failed attempts. */
	public long processed() {
		return this.completed + this.failed;
	}

}

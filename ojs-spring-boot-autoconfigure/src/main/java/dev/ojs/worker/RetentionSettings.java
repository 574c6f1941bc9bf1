package dev.ojs.worker;

import java.time.Duration;

/**
 * How long finished jobs are kept before they are pruned.
 *
 * @param completed how long completed jobs are kept; {@link Duration#ZERO} deletes them on
 * completion
 * @param discarded how long plain (non dead-letter) discarded and cancelled jobs are kept
 * @param deadLetterMaxAge dead letters older than this are pruned
 * @param deadLetterMaxCount at most this many dead letters are kept (oldest pruned first,
 * after the age rule)
 * @param pruneInterval how often a node prunes
 */
public record RetentionSettings(Duration completed, Duration discarded, Duration deadLetterMaxAge,
		int deadLetterMaxCount, Duration pruneInterval) {

	/** Completed 1 h, discarded 7 days, dead letters 180 days / 10,000, pruned every minute. */
	public static RetentionSettings defaults() {
		return new RetentionSettings(Duration.ofHours(1), Duration.ofDays(7), Duration.ofDays(180), 10_000,
				Duration.ofMinutes(1));
	}

}

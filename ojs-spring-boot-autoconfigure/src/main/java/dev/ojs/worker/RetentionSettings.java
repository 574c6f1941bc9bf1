package dev.ojs.worker;

import java.time.Duration;

/**
 * How long finished jobs are kept before they are pruned.
 *
 * @param completed how long completed jobs are kept; {@link Duration#ZERO} deletes them on
 * completion; not negative
 * @param discarded how long plain (non dead-letter) discarded and cancelled jobs are kept;
 * not negative
 * @param deadLetterMaxAge dead letters older than this are pruned; positive
 * @param deadLetterMaxCount at most this many dead letters are kept (oldest pruned first,
 * after the age rule); not negative
 * @param pruneInterval how often a node prunes; positive
 * @throws IllegalArgumentException when a value is out of range
 */
public record RetentionSettings(Duration completed, Duration discarded, Duration deadLetterMaxAge,
		int deadLetterMaxCount, Duration pruneInterval) {

	public RetentionSettings {
		notNegative("completed", completed);
		notNegative("discarded", discarded);
		positive("deadLetterMaxAge", deadLetterMaxAge);
		if (deadLetterMaxCount < 0) {
			throw new IllegalArgumentException("deadLetterMaxCount must not be negative, got " + deadLetterMaxCount);
		}
		positive("pruneInterval", pruneInterval);
	}

	/** Completed 1 h, discarded 7 days, dead letters 180 days / 10,000, pruned every minute. */
	public static RetentionSettings defaults() {
		return new RetentionSettings(Duration.ofHours(1), Duration.ofDays(7), Duration.ofDays(180), 10_000,
				Duration.ofMinutes(1));
	}

	static void positive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be a positive duration, got " + value);
		}
	}

	static void notNegative(String name, Duration value) {
		if (value == null || value.isNegative()) {
			throw new IllegalArgumentException(name + " must not be negative, got " + value);
		}
	}

}

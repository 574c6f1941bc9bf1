package dev.ojs.worker;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

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

	/** How long completed jobs are kept, unless given. */
	public static final Duration DEFAULT_COMPLETED = Duration.ofHours(1);

	/** How long discarded and cancelled jobs are kept, unless given. */
	public static final Duration DEFAULT_DISCARDED = Duration.ofDays(7);

	/** How long dead letters are kept, unless given. */
	public static final Duration DEFAULT_DEAD_LETTER_MAX_AGE = Duration.ofDays(180);

	/** How many dead letters are kept, unless given. */
	public static final int DEFAULT_DEAD_LETTER_MAX_COUNT = 10_000;

	/** How often a node prunes, unless given. */
	public static final Duration DEFAULT_PRUNE_INTERVAL = Duration.ofMinutes(1);

	/** Every default. */
	public static RetentionSettings defaults() {
		return new RetentionSettings(DEFAULT_COMPLETED, DEFAULT_DISCARDED, DEFAULT_DEAD_LETTER_MAX_AGE,
				DEFAULT_DEAD_LETTER_MAX_COUNT, DEFAULT_PRUNE_INTERVAL);
	}

	static void positive(String name, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be a positive duration, got " + value);
		}
	}

	static void notNegative(String name, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			throw new IllegalArgumentException(name + " must not be negative, got " + value);
		}
	}

}

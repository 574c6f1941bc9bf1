package dev.ojs.job;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * The range of instants the store writes, and arithmetic that stays inside it. Every
 * supported column type holds {@link #MIN} to {@link #MAX}: MariaDB/MySQL {@code DATETIME(6)}
 * ends at {@code 9999-12-31 23:59:59.999999} and begins at year 1000, and PostgreSQL reads
 * ISO text only with four-digit years. Computed times (a retry's {@code next_retry_at}, a
 * reservation's {@code locked_until}) saturate at {@link #MAX}, so a policy with an enormous
 * {@code max_interval} means "practically never" instead of a failed write; retention cutoffs
 * saturate at {@link #MIN}.
 */
public final class Timestamps {

	/** The latest instant stored: {@code 9999-12-31T23:59:59Z}. */
	public static final Instant MAX = Instant.parse("9999-12-31T23:59:59Z");

	/** The earliest cutoff used: the epoch (every stored job was created after it). */
	public static final Instant MIN = Instant.EPOCH;

	private Timestamps() {
	}

	/** {@code instant + amount}, at most {@link #MAX}; never throws for a non-negative amount. */
	public static Instant plus(Instant instant, Duration amount) {
		if (instant.isAfter(MAX) || amount.compareTo(untilMax(instant)) >= 0) {
			return MAX;
		}
		return instant.plus(amount);
	}

	/**
	 * {@code MAX - instant} for an instant not after {@link #MAX}. Computed from the fields:
	 * {@link Duration#between} counts in nanoseconds first and, for spans beyond 292 years
	 * (any span to {@code MAX}), throws and catches an overflow on every call.
	 */
	private static Duration untilMax(Instant instant) {
		return Duration.ofSeconds(MAX.getEpochSecond() - instant.getEpochSecond(),
				(long) MAX.getNano() - instant.getNano());
	}

	/** {@code instant - amount}, at least {@link #MIN}; never throws for a non-negative amount. */
	public static Instant minus(Instant instant, Duration amount) {
		try {
			Instant result = instant.minus(amount);
			return result.isBefore(MIN) ? MIN : result;
		}
		catch (DateTimeException | ArithmeticException ex) {
			return MIN;
		}
	}

}

package dev.ojs.job;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A queue's rate limit (ojs-queue-config.md §6.2 and §8.3, spec README decision 22): at most
 * {@code limit} jobs of the queue start per {@code period}, on every node together, in-process
 * and HTTP workers alike.
 * <p>
 * It is a token bucket in its GCRA form, kept as one number per queue, the theoretical
 * arrival time ({@code tat}): the bucket holds {@code limit} tokens and gets one back every
 * {@code period / limit}. A queue idle for a period may start {@code limit} jobs at once;
 * over any stretch of time {@code t} at most {@code limit + limit × t / period} jobs start.
 *
 * @param limit the most jobs that start per period, at least 1
 * @param period the period, from 1 ms to 1 day
 */
public record RateLimit(int limit, Duration period) {

	/** The longest period accepted. */
	public static final Duration MAX_PERIOD = Duration.ofDays(1);

	public RateLimit {
		if (limit < 1) {
			throw new IllegalArgumentException("A rate limit's limit must be at least 1, not " + limit);
		}
		if (period == null || period.compareTo(Duration.ofMillis(1)) < 0 || period.compareTo(MAX_PERIOD) > 0) {
			throw new IllegalArgumentException("A rate limit's period must be from PT0.001S to P1D, not " + period);
		}
	}

	/** {@code max_per_second} of the HTTP binding's RateLimitPolicy (openapi.yaml). */
	public static RateLimit perSecond(int maxPerSecond) {
		return new RateLimit(maxPerSecond, Duration.ofSeconds(1));
	}

	/** The time between two tokens, rounded up so the limit is never exceeded. */
	long intervalNanos() {
		long period = this.period.toNanos();
		return (period + this.limit - 1) / this.limit;
	}

	/**
	 * How many jobs may start now.
	 * @param tat the stored theoretical arrival time in epoch nanoseconds, or {@code null}
	 * for a bucket never drawn from
	 * @param now now, in epoch nanoseconds
	 */
	public int available(@Nullable Long tat, long now) {
		long tokens = (now + this.period.toNanos() - from(tat, now)) / intervalNanos();
		return (int) Math.max(0, Math.min(this.limit, tokens));
	}

	/** The theoretical arrival time after {@code taken} jobs started now. */
	public long taken(@Nullable Long tat, long now, int taken) {
		return from(tat, now) + taken * intervalNanos();
	}

	/** When the next token comes back, in epoch nanoseconds (now or earlier when one is there). */
	public long nextTokenAt(@Nullable Long tat, long now) {
		return from(tat, now) + intervalNanos() - this.period.toNanos();
	}

	/** Where the bucket stands: its arrival time, or now when it is full. */
	private static long from(@Nullable Long tat, long now) {
		return (tat != null) ? Math.max(tat, now) : now;
	}

	/** An instant in epoch nanoseconds, as {@code tat} is stored. */
	public static long epochNanos(Instant instant) {
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
	}

}

package dev.ojs.retry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * The delay arithmetic of spec §3 and §5 (Appendix A), overflow-safe: factors are computed
 * in {@code double}, and anything not finite or not below {@code max_interval} is capped to
 * exactly {@code max_interval}, so every result is a finite, non-negative duration no
 * longer than {@code max_interval}.
 */
final class Backoff {

	private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000);

	private static final BigInteger TWO = BigInteger.TWO;

	private static final BigInteger THREE = BigInteger.valueOf(3);

	private Backoff() {
	}

	/**
	 * The raw delay of retry {@code n} per strategy (§3.1–3.4), capped at
	 * {@code maxInterval} (§3.5).
	 */
	static Duration cappedDelay(BackoffStrategy strategy, Duration initialInterval, double coefficient, int n,
			Duration maxInterval) {
		double factor = switch (strategy) {
			// §3.1 none: delay(n) = I
			case NONE -> 1.0;
			// §3.2 linear: delay(n) = I * n
			case LINEAR -> n;
			// §3.3 exponential: delay(n) = I * C^(n - 1)
			case EXPONENTIAL -> Math.pow(coefficient, n - 1.0);
			// §3.4 polynomial: delay(n) = I * n^C
			case POLYNOMIAL -> Math.pow(n, coefficient);
		};
		double raw = seconds(initialInterval) * factor;
		// §3.5 cap: effective_delay(n) = min(raw_delay(n), M); also catches overflow to infinity
		if (!(raw < seconds(maxInterval))) {
			return maxInterval;
		}
		return min(ofSeconds(raw), maxInterval);
	}

	/**
	 * Jitter (§5.1): {@code effective_delay * multiplier} for a multiplier in
	 * {@code [0.5, 1.5)}, then capped at {@code maxInterval} again (§5.3) and floored at zero.
	 * <p>
	 * The product is computed exactly and rounded to whole nanoseconds inside the §5.2
	 * bounds {@code [0.5 * D, 1.5 * D)}, so rounding can never leave them.
	 */
	static Duration jittered(Duration effectiveDelay, double multiplier, Duration maxInterval) {
		BigInteger d = nanos(effectiveDelay);
		// §5.1 jittered_delay = effective_delay * random(0.5, 1.5)
		BigInteger jittered = new BigDecimal(d).multiply(new BigDecimal(multiplier))
			.setScale(0, RoundingMode.HALF_EVEN)
			.toBigInteger();
		// §5.2 bounds in whole nanoseconds: [ceil(D / 2), ceil(3D / 2) - 1]
		BigInteger lowest = d.add(BigInteger.ONE).divide(TWO);
		BigInteger highest = d.multiply(THREE).add(BigInteger.ONE).divide(TWO).subtract(BigInteger.ONE).max(lowest);
		jittered = jittered.max(lowest).min(highest);
		// §5.1 floor at zero
		jittered = jittered.max(BigInteger.ZERO);
		// §5.3 final_delay = min(jittered_delay, M)
		return ofNanos(jittered.min(nanos(maxInterval)));
	}

	/** §3.5 / §5.3 cap for a given delay, floored at zero (§5.1). */
	static Duration cap(Duration delay, Duration maxInterval) {
		return delay.isNegative() ? Duration.ZERO : min(delay, maxInterval);
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static double seconds(Duration duration) {
		return duration.getSeconds() + duration.getNano() / 1e9;
	}

	private static Duration ofSeconds(double seconds) {
		BigInteger nanos = new BigDecimal(seconds).movePointRight(9).setScale(0, RoundingMode.HALF_EVEN).toBigInteger();
		return ofNanos(nanos);
	}

	private static BigInteger nanos(Duration duration) {
		return BigInteger.valueOf(duration.getSeconds())
			.multiply(NANOS_PER_SECOND)
			.add(BigInteger.valueOf(duration.getNano()));
	}

	private static Duration ofNanos(BigInteger nanos) {
		BigInteger[] secondsAndNanos = nanos.divideAndRemainder(NANOS_PER_SECOND);
		return Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValue());
	}

}

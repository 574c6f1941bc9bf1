package dev.ojs.retry;

import java.math.BigInteger;
import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-style tests: for any retry number from 1 to {@link Integer#MAX_VALUE}, any valid
 * coefficient and any intervals, every delay is a finite duration between zero and
 * {@code max_interval} (§3.5, §5.3), and never throws.
 */
class RetryPolicyOverflowTest {

	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	private static final int[] EDGE_RETRIES = { 1, 2, 3, 63, 64, 1024, 1025, 65_536, 1 << 30, Integer.MAX_VALUE - 1,
			Integer.MAX_VALUE };

	private static final double[] EDGE_COEFFICIENTS = { 1.0, Math.nextUp(1.0), 1.5, 2.0, 10.0, 1e3, 1e9, 1e300,
			Double.MAX_VALUE };

	private static final Duration[] EDGE_INTERVALS = { Duration.ofNanos(1), Duration.ofMillis(1),
			Duration.ofSeconds(1), Duration.ofMinutes(5), Duration.ofDays(365 * 300L), LONGEST };

	@ParameterizedTest(quoteTextArguments = false,
			name = "{0}: edge retry numbers × coefficients × intervals stay within [0, max_interval]")
	@EnumSource(BackoffStrategy.class)
	void edgeCasesStayWithinTheCap(BackoffStrategy strategy) {
		SplittableRandom random = new SplittableRandom(strategy.ordinal());
		for (Duration initial : EDGE_INTERVALS) {
			for (Duration max : EDGE_INTERVALS) {
				if (max.compareTo(initial) < 0) {
					continue;
				}
				for (double coefficient : EDGE_COEFFICIENTS) {
					RetryPolicy policy = policy(strategy, initial, coefficient, max, true);
					for (int retry : EDGE_RETRIES) {
						assertWithinCap(policy, retry, random);
					}
				}
			}
		}
	}

	@ParameterizedTest(quoteTextArguments = false,
			name = "{0}: 20,000 random policies and retry numbers stay within [0, max_interval]")
	@EnumSource(BackoffStrategy.class)
	void randomPoliciesStayWithinTheCap(BackoffStrategy strategy) {
		SplittableRandom random = new SplittableRandom(1000 + strategy.ordinal());
		for (int i = 0; i < 20_000; i++) {
			Duration initial = Duration.ofNanos(1 + (random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63)));
			Duration max = initial.plusNanos(random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63));
			double coefficient = 1.0 + random.nextDouble() * Math.pow(10, random.nextInt(10));
			int retry = random.nextBoolean() ? random.nextInt(1, Integer.MAX_VALUE) + 1 : random.nextInt(1, 100);
			assertWithinCap(policy(strategy, initial, coefficient, max, random.nextBoolean()), retry, random);
		}
	}

	@Test
	void growingStrategiesReachTheCapAndStayThere() {
		for (BackoffStrategy strategy : new BackoffStrategy[] { BackoffStrategy.LINEAR, BackoffStrategy.EXPONENTIAL,
				BackoffStrategy.POLYNOMIAL }) {
			RetryPolicy policy = policy(strategy, Duration.ofSeconds(1), 1e9, Duration.ofMinutes(5), false);
			assertThat(policy.delayBeforeRetry(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
			assertThat(policy.delayBeforeRetry(1_000_000)).isEqualTo(Duration.ofMinutes(5));
		}
	}

	@Test
	void delaysNeverDecreaseWithoutJitter() {
		SplittableRandom random = new SplittableRandom(99);
		for (BackoffStrategy strategy : BackoffStrategy.values()) {
			RetryPolicy policy = policy(strategy, Duration.ofMillis(random.nextInt(1, 5000)),
					1.0 + random.nextDouble() * 5, Duration.ofHours(1), false);
			Duration previous = Duration.ZERO;
			for (int retry = 1; retry <= 200; retry++) {
				Duration delay = policy.delayBeforeRetry(retry);
				assertThat(delay).isGreaterThanOrEqualTo(previous);
				previous = delay;
			}
		}
	}

	@Test
	void jitterAtTheLongestIntervalDoesNotOverflow() {
		RetryPolicy policy = policy(BackoffStrategy.EXPONENTIAL, LONGEST, 2.0, LONGEST, true);
		SplittableRandom random = new SplittableRandom(5);
		for (int i = 0; i < 1000; i++) {
			Duration delay = policy.delayBeforeRetry(Integer.MAX_VALUE, random);
			assertThat(delay).isBetween(LONGEST.dividedBy(2), LONGEST);
		}
	}

	private static void assertWithinCap(RetryPolicy policy, int retry, SplittableRandom random) {
		Duration raw = policy.delayBeforeRetry(retry);
		Duration jittered = policy.delayBeforeRetry(retry, random);
		assertThat(raw).as("%s retry %d", policy, retry).isBetween(Duration.ZERO, policy.maxInterval());
		assertThat(jittered).as("%s retry %d", policy, retry).isBetween(Duration.ZERO, policy.maxInterval());
		if (policy.jitter()) {
			// §5.2: [0.5 * D, 1.5 * D), then the §5.3 cap
			assertThat(nanos(jittered).shiftLeft(1)).isGreaterThanOrEqualTo(nanos(raw));
			// jittered = min(raw * m, max_interval) <= raw * m < 1.5 * raw (or exactly 0 when raw is 0)
			if (!raw.isZero()) {
				assertThat(nanos(jittered).shiftLeft(1)).as("%s retry %d", policy, retry)
					.isLessThan(nanos(raw).multiply(BigInteger.valueOf(3)));
			}
		}
		else {
			assertThat(jittered).isEqualTo(raw);
		}
	}

	private static BigInteger nanos(Duration duration) {
		return BigInteger.valueOf(duration.getSeconds())
			.multiply(BigInteger.valueOf(1_000_000_000))
			.add(BigInteger.valueOf(duration.getNano()));
	}

	private static RetryPolicy policy(BackoffStrategy strategy, Duration initial, double coefficient, Duration max,
			boolean jitter) {
		return RetryPolicy.builder()
			.backoffStrategy(strategy)
			.initialInterval(initial)
			.backoffCoefficient(coefficient)
			.maxInterval(max)
			.jitter(jitter)
			.build()
			.effective();
	}

}

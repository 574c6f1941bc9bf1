package dev.ojs.retry;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Jitter, spec §5 (RET-05, RET-06): bounds checked statistically over many seeded draws.
 */
class RetryPolicyJitterTest {

	private static final int DRAWS = 100_000;

	/** §5.3: I = PT10S, C = 2.0, jitter, exponential, default max_interval PT5M. */
	private static final RetryPolicy EXAMPLE = RetryPolicy.parse("""
			{"initial_interval": "PT10S", "backoff_coefficient": 2.0, "jitter": true}""");

	@ParameterizedTest(quoteTextArguments = false,
			name = "§5.3 attempt {0} (retry {1}): capped {2}s, jitter range [{3}s, {4}s)")
	@CsvSource({ "2, 1, 10, 5, 15", "3, 2, 20, 10, 30", "4, 3, 40, 20, 60", "5, 4, 80, 40, 120",
			"6, 5, 160, 80, 240" })
	void uncappedRowsStayWithinHalfAndOneAndAHalf(int attempt, int retry, long capped, long min, long max) {
		Duration d = Duration.ofSeconds(capped);
		assertThat(EXAMPLE.delayBeforeRetry(retry)).isEqualTo(d);
		Stats stats = draw(EXAMPLE, retry, new SplittableRandom(attempt));
		// §5.2 minimum 0.5 * D, maximum 1.5 * D exclusive, mean 1.0 * D
		assertThat(stats.min).isGreaterThanOrEqualTo(Duration.ofSeconds(min));
		assertThat(stats.max).isLessThan(Duration.ofSeconds(max)).isLessThanOrEqualTo(Duration.ofMinutes(5));
		assertThat(stats.meanSeconds()).isCloseTo(capped, within(capped * 0.01));
		// the draws really spread over the range, not just inside it
		assertThat(stats.min).isLessThan(Duration.ofMillis(min * 1000 + capped * 10));
		assertThat(stats.max).isGreaterThan(Duration.ofMillis(max * 1000 - capped * 10));
	}

	@Test
	void cappedRowNeverExceedsMaxInterval() {
		// §5.3 attempt 7 (retry 6): raw 320s, capped 300s, jitter [150s, 450s) capped at [150s, 300s]
		assertThat(EXAMPLE.delayBeforeRetry(6)).isEqualTo(Duration.ofSeconds(300));
		Stats stats = draw(EXAMPLE, 6, new SplittableRandom(7));
		assertThat(stats.min).isGreaterThanOrEqualTo(Duration.ofSeconds(150));
		assertThat(stats.max).isEqualTo(Duration.ofSeconds(300));
		// half the multipliers are >= 1.0 and end up exactly at the cap
		assertThat((double) stats.atCap / DRAWS).isCloseTo(0.5, within(0.01));
		// E[min(300 * m, 300)] for m uniform in [0.5, 1.5) = 262.5s
		assertThat(stats.meanSeconds()).isCloseTo(262.5, within(262.5 * 0.01));
	}

	@Test
	void jitterDisabledUsesTheDelayExactly() {
		RetryPolicy policy = RetryPolicy.parse("""
				{"initial_interval": "PT10S", "jitter": false}""");
		Stats stats = draw(policy, 3, new SplittableRandom(3));
		assertThat(stats.min).isEqualTo(Duration.ofSeconds(40));
		assertThat(stats.max).isEqualTo(Duration.ofSeconds(40));
	}

	@Test
	void extremeMultipliersStayWithinBounds() {
		Duration d = Duration.ofSeconds(10);
		double belowOneAndAHalf = Math.nextDown(1.5);
		for (Duration delay : new Duration[] { Duration.ofNanos(1), Duration.ofNanos(2), Duration.ofNanos(3),
				Duration.ofSeconds(1), Duration.ofSeconds(3), d, Duration.ofSeconds(5, 1) }) {
			Duration highest = Backoff.jittered(delay, belowOneAndAHalf, Duration.ofDays(1));
			Duration lowest = Backoff.jittered(delay, 0.5, Duration.ofDays(1));
			assertThat(highest.multipliedBy(2)).as("max < 1.5 * %s", delay).isLessThan(delay.multipliedBy(3));
			assertThat(lowest.multipliedBy(2)).as("min >= 0.5 * %s", delay).isGreaterThanOrEqualTo(delay);
		}
	}

	@Test
	void usesTheMultiplierOfTheRandomSource() {
		RandomGenerator fixed = new RandomGenerator() {

			@Override
			public long nextLong() {
				throw new UnsupportedOperationException();
			}

			@Override
			public double nextDouble(double origin, double bound) {
				assertThat(origin).isEqualTo(0.5);
				assertThat(bound).isEqualTo(1.5);
				return 1.25;
			}

		};
		assertThat(EXAMPLE.delayBeforeRetry(1, fixed)).isEqualTo(Duration.ofMillis(12_500));
	}

	private static Stats draw(RetryPolicy policy, int retry, RandomGenerator random) {
		Stats stats = new Stats();
		for (int i = 0; i < DRAWS; i++) {
			stats.add(policy.delayBeforeRetry(retry, random), policy.maxInterval());
		}
		return stats;
	}

	private static final class Stats {

		private Duration min = Duration.ofSeconds(Long.MAX_VALUE);

		private Duration max = Duration.ZERO;

		private double sumSeconds;

		private int atCap;

		void add(Duration delay, Duration cap) {
			this.min = (delay.compareTo(this.min) < 0) ? delay : this.min;
			this.max = (delay.compareTo(this.max) > 0) ? delay : this.max;
			this.sumSeconds += delay.toNanos() / 1e9;
			this.atCap += delay.equals(cap) ? 1 : 0;
		}

		double meanSeconds() {
			return this.sumSeconds / DRAWS;
		}

	}

}

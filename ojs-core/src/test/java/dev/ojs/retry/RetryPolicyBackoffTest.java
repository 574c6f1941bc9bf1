package dev.ojs.retry;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The backoff tables of spec §3.1–§3.5 as test vectors (delays before jitter).
 */
class RetryPolicyBackoffTest {

	@ParameterizedTest(quoteTextArguments = false,
			name = "{0} {1}, I={2} C={3}: attempt {4} (retry {5}) raw {6}s, capped at PT5M {7}s")
	@CsvSource(delimiter = '|', textBlock = """
			§3.1 | NONE        | PT5S | 2.0 |  2 |  1 |   5 |   5
			§3.1 | NONE        | PT5S | 2.0 |  3 |  2 |   5 |   5
			§3.1 | NONE        | PT5S | 2.0 |  4 |  3 |   5 |   5
			§3.1 | NONE        | PT5S | 2.0 |  5 |  4 |   5 |   5
			§3.2 | LINEAR      | PT5S | 2.0 |  2 |  1 |   5 |   5
			§3.2 | LINEAR      | PT5S | 2.0 |  3 |  2 |  10 |  10
			§3.2 | LINEAR      | PT5S | 2.0 |  4 |  3 |  15 |  15
			§3.2 | LINEAR      | PT5S | 2.0 |  5 |  4 |  20 |  20
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  2 |  1 |   1 |   1
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  3 |  2 |   2 |   2
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  4 |  3 |   4 |   4
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  5 |  4 |   8 |   8
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  6 |  5 |  16 |  16
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  7 |  6 |  32 |  32
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  8 |  7 |  64 |  64
			§3.3 | EXPONENTIAL | PT1S | 2.0 |  9 |  8 | 128 | 128
			§3.3 | EXPONENTIAL | PT1S | 2.0 | 10 |  9 | 256 | 256
			§3.3 | EXPONENTIAL | PT1S | 2.0 | 11 | 10 | 512 | 300
			§3.4 | POLYNOMIAL  | PT1S | 4.0 |  2 |  1 |   1 |   1
			§3.4 | POLYNOMIAL  | PT1S | 4.0 |  3 |  2 |  16 |  16
			§3.4 | POLYNOMIAL  | PT1S | 4.0 |  4 |  3 |  81 |  81
			§3.4 | POLYNOMIAL  | PT1S | 4.0 |  5 |  4 | 256 | 256
			§3.4 | POLYNOMIAL  | PT1S | 4.0 |  6 |  5 | 625 | 300
			""")
	void strategyTables(String section, BackoffStrategy strategy, String initial, double coefficient, int attempt,
			int retry, long rawSeconds, long cappedSeconds) {
		// retry n is attempt n + 1
		assertThat(retry).isEqualTo(attempt - 1);
		RetryPolicy uncapped = policy(strategy, initial, coefficient, "PT1H");
		assertThat(uncapped.delayBeforeRetry(retry)).isEqualTo(Duration.ofSeconds(rawSeconds));
		RetryPolicy policy = policy(strategy, initial, coefficient, "PT5M");
		assertThat(policy.delayBeforeRetry(retry)).isEqualTo(Duration.ofSeconds(cappedSeconds));
	}

	@ParameterizedTest(name = "§3.5 cap applies to {0}: retry {1} is min(raw, PT10S)", quoteTextArguments = false)
	@CsvSource({ "NONE, 1", "LINEAR, 3", "EXPONENTIAL, 5", "POLYNOMIAL, 4" })
	void capAppliesToEveryStrategy(BackoffStrategy strategy, int retry) {
		RetryPolicy policy = policy(strategy, "PT4S", 2.0, "PT10S");
		assertThat(policy.delayBeforeRetry(retry)).isLessThanOrEqualTo(Duration.ofSeconds(10));
		if (strategy != BackoffStrategy.NONE) {
			assertThat(policy.delayBeforeRetry(retry)).isEqualTo(Duration.ofSeconds(10));
		}
	}

	@Test
	void coefficientIsIgnoredByNoneAndLinear() {
		for (double coefficient : new double[] { 1.0, 3.0, 1e9 }) {
			assertThat(policy(BackoffStrategy.NONE, "PT5S", coefficient, "PT5M").delayBeforeRetry(4))
				.isEqualTo(Duration.ofSeconds(5));
			assertThat(policy(BackoffStrategy.LINEAR, "PT5S", coefficient, "PT5M").delayBeforeRetry(4))
				.isEqualTo(Duration.ofSeconds(20));
		}
	}

	@Test
	void coefficientOneIsConstantExponentialBackoff() {
		RetryPolicy policy = policy(BackoffStrategy.EXPONENTIAL, "PT7S", 1.0, "PT5M");
		assertThat(policy.delayBeforeRetry(1)).isEqualTo(Duration.ofSeconds(7));
		assertThat(policy.delayBeforeRetry(1000)).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void subSecondDelaysAreExactToTheNanosecond() {
		RetryPolicy policy = policy(BackoffStrategy.LINEAR, "PT0.1S", 2.0, "PT5M");
		assertThat(policy.delayBeforeRetry(3)).isEqualTo(Duration.ofMillis(300));
		RetryPolicy exponential = policy(BackoffStrategy.EXPONENTIAL, "PT0.000000001S", 1.5, "PT5M");
		assertThat(exponential.delayBeforeRetry(2)).isEqualTo(Duration.ofNanos(2));
	}

	@Test
	void delayBeforeRetryWithoutJitterIgnoresTheRandomSource() {
		RetryPolicy policy = RetryPolicy.builder().jitter(false).build().effective();
		assertThat(policy.delayBeforeRetry(2, new java.util.SplittableRandom(1))).isEqualTo(Duration.ofSeconds(2));
	}

	@ParameterizedTest(name = "retryNumber {0} is rejected", quoteTextArguments = false)
	@CsvSource({ "0", "-1", "-2147483648" })
	void retryNumberIsOneBased(int retryNumber) {
		assertThatIllegalArgumentException().isThrownBy(() -> RetryPolicy.DEFAULT.delayBeforeRetry(retryNumber));
	}

	@Test
	void partialPolicyHasNoDelay() {
		RetryPolicy partial = RetryPolicy.builder().maxAttempts(5).build();
		assertThatIllegalStateException().isThrownBy(() -> partial.delayBeforeRetry(1));
		assertThatIllegalStateException().isThrownBy(() -> partial.capDelay(Duration.ZERO));
	}

	@ParameterizedTest(name = "capDelay({0}) = {1} with max_interval PT5M", quoteTextArguments = false)
	@CsvSource({ "PT1S, PT1S", "PT5M, PT5M", "PT5M0.000000001S, PT5M", "PT100H, PT5M", "PT-1S, PT0S", "PT0S, PT0S" })
	void capDelay(Duration delay, Duration expected) {
		assertThat(RetryPolicy.DEFAULT.capDelay(delay)).isEqualTo(expected);
	}

	static RetryPolicy policy(BackoffStrategy strategy, String initial, double coefficient, String max) {
		return RetryPolicy.builder()
			.backoffStrategy(strategy)
			.initialInterval(IsoDurations.parse(initial))
			.backoffCoefficient(coefficient)
			.maxInterval(IsoDurations.parse(max))
			.jitter(false)
			.build()
			.effective();
	}

}

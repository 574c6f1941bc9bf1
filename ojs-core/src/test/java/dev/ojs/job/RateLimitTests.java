package dev.ojs.job;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RateLimit}: the token bucket of a queue's rate limit
 * (ojs-queue-config.md §6.2/§8.3, L4-RATE-001), on a clock of plain numbers.
 */
class RateLimitTests {

	private static final long SECOND = 1_000_000_000L;

	private final RateLimit tenPerSecond = new RateLimit(10, Duration.ofSeconds(1));

	@Test
	void aBucketNeverDrawnFromHoldsTheWholeLimit() {
		assertThat(this.tenPerSecond.available(null, 5 * SECOND)).isEqualTo(10);
		assertThat(this.tenPerSecond.available(0L, 5 * SECOND)).isEqualTo(10);
	}

	@Test
	void drawingTheWholeLimitLeavesNothingUntilATokenComesBack() {
		long now = 100 * SECOND;
		long tat = this.tenPerSecond.taken(null, now, 10);
		assertThat(this.tenPerSecond.available(tat, now)).isZero();
		assertThat(this.tenPerSecond.nextTokenAt(tat, now)).isEqualTo(now + SECOND / 10);
		assertThat(this.tenPerSecond.available(tat, now + SECOND / 10 - 1)).isZero();
		assertThat(this.tenPerSecond.available(tat, now + SECOND / 10)).isOne();
		assertThat(this.tenPerSecond.available(tat, now + SECOND)).isEqualTo(10);
	}

	@Test
	void tokensComeBackAtTheRateAndNeverPastTheLimit() {
		long now = 100 * SECOND;
		long tat = this.tenPerSecond.taken(null, now, 10);
		assertThat(this.tenPerSecond.available(tat, now + SECOND / 2)).isEqualTo(5);
		assertThat(this.tenPerSecond.available(tat, now + 60 * SECOND)).isEqualTo(10);
	}

	@Test
	void startsOverAnyStretchStayWithinTheLimitPlusTheRate() {
		// draw greedily every millisecond for 10 s: at most limit + limit × t / period start
		RateLimit limit = new RateLimit(7, Duration.ofMillis(300));
		Long tat = null;
		long started = 0;
		long start = 42 * SECOND;
		long end = start + 10 * SECOND;
		for (long now = start; now < end; now += 1_000_000L) {
			int available = limit.available(tat, now);
			if (available > 0) {
				tat = limit.taken(tat, now, available);
				started += available;
			}
		}
		long bound = 7 + 7 * (10 * SECOND) / (300 * 1_000_000L);
		assertThat(started).isLessThanOrEqualTo(bound).isGreaterThanOrEqualTo(bound - 7);
	}

	@Test
	void anUnevenIntervalIsRoundedUpSoTheLimitHolds() {
		RateLimit threePerSecond = new RateLimit(3, Duration.ofSeconds(1));
		long tat = threePerSecond.taken(null, 0, 3);
		assertThat(tat).isGreaterThanOrEqualTo(SECOND);
		assertThat(threePerSecond.available(tat, SECOND - 1)).isEqualTo(2);
	}

	@Test
	void maxPerSecondOfTheBindingIsALimitPerSecond() {
		assertThat(RateLimit.perSecond(50)).isEqualTo(new RateLimit(50, Duration.ofSeconds(1)));
	}

	@Test
	void epochNanosOfAnInstant() {
		assertThat(RateLimit.epochNanos(Instant.ofEpochSecond(3, 5))).isEqualTo(3 * SECOND + 5);
	}

	@Test
	void invalidLimitsAreRejectedNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RateLimit(0, Duration.ofSeconds(1)))
			.withMessageContaining("limit");
		assertThatIllegalArgumentException().isThrownBy(() -> new RateLimit(1, Duration.ZERO))
			.withMessageContaining("period");
		assertThatIllegalArgumentException().isThrownBy(() -> new RateLimit(1, Duration.ofDays(2)))
			.withMessageContaining("period");
	}

}

package dev.ojs.retry;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The next attempt of a stalled job (spec §9.1/§9.2, decision 1, RET-12): its backoff counts
 * from the attempt's start, and never before its reservation ends. The vectors of
 * docs/retries.md, on a clock the test sets: the attempt starts at {@code T}.
 */
class StalledAttemptsTest {

	private static final Instant T = Instant.parse("2026-02-12T10:00:00Z");

	@ParameterizedTest(name = "reservation {0} ms, backoff {1} ms: next attempt at T+{2} ms")
	@CsvSource({
			// L1-VIS-001: a 3 s reservation, the default policy's first delay (PT1S, jitter up to 1.5 s)
			"3000, 1000, 3000", "3000, 1500, 3000",
			// L1-TMO-001: timeout 2 s, PT1S without jitter
			"2000, 1000, 2000",
			// a backoff longer than the reservation counts from the attempt's start
			"3000, 8000, 8000", "30000, 60000, 60000",
			// equal: the reservation's end
			"5000, 5000, 5000",
			// no backoff
			"1000, 0, 1000" })
	void nextAttemptIsTheLaterOfReservationEndAndStartPlusBackoff(long reservationMillis, long backoffMillis,
			long expectedMillis) {
		assertThat(StalledAttempts.nextAttemptAt(T, T.plusMillis(reservationMillis), Duration.ofMillis(backoffMillis)))
			.isEqualTo(T.plusMillis(expectedMillis));
	}

	@ParameterizedTest(name = "heartbeat at T+{0} ms, reservation to T+{1} ms, backoff {2} ms: T+{3} ms")
	@CsvSource({ "20000, 50000, 1000, 50000", "20000, 21000, 4000, 24000" })
	void aLaterSignOfLifeIsTheAttemptsStart(long lastBeatMillis, long reservationEndMillis, long backoffMillis,
			long expectedMillis) {
		assertThat(StalledAttempts.nextAttemptAt(T.plusMillis(lastBeatMillis), T.plusMillis(reservationEndMillis),
				Duration.ofMillis(backoffMillis)))
			.isEqualTo(T.plusMillis(expectedMillis));
	}

	@ParameterizedTest(name = "backoff {0}")
	@CsvSource({ "PT2562047H", "PT10000000000H" })
	void anEnormousBackoffSaturates(String backoff) {
		assertThat(StalledAttempts.nextAttemptAt(T, T.plusSeconds(3), Duration.parse(backoff))).isAfter(T);
	}

}

package dev.ojs.retry;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * When the next attempt of a stalled job may start: one whose reservation expired without an
 * outcome (spec §9.2, decision 1) or that ran past its execution timeout. §9.1 makes the
 * backoff protect explicit failures, counted from the failure; a stalled attempt's failure
 * moment is unknown, so its backoff counts from the attempt's start (its claim, or its last
 * heartbeat when known), and the job is never claimable before its reservation ends:
 * {@code max(reservation end, attempt start + backoff)}. Explicit failures (a nack, a
 * handler's exception) keep {@code failure time + backoff}.
 */
public final class StalledAttempts {

	private StalledAttempts() {
	}

	/**
	 * The next attempt's due time.
	 * @param attemptStart when the stalled attempt started (or last showed life)
	 * @param reservationEnd when its reservation ended
	 * @param backoff the retry policy's delay for this attempt
	 */
	public static Instant nextAttemptAt(Instant attemptStart, Instant reservationEnd, Duration backoff) {
		Instant afterBackoff = plus(attemptStart, backoff);
		return afterBackoff.isAfter(reservationEnd) ? afterBackoff : reservationEnd;
	}

	private static Instant plus(Instant instant, Duration amount) {
		try {
			return instant.plus(amount);
		}
		catch (ArithmeticException | DateTimeException ex) {
			return Instant.MAX;
		}
	}

}

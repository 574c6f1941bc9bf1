package dev.ojs.retry;

import java.util.Locale;

/**
 * Backoff strategies (spec §3), selected by the optional {@code backoff_strategy} extension
 * field. Each formula's implementation lives in {@link RetryPolicy#delayBeforeRetry(int)}.
 */
public enum BackoffStrategy {

	/** §3.1 constant: {@code delay(n) = initial_interval}. */
	NONE,
	/** §3.2 linear: {@code delay(n) = initial_interval * n}. */
	LINEAR,
	/** §3.3 exponential, the default: {@code delay(n) = initial_interval * coefficient^(n-1)}. */
	EXPONENTIAL,
	/** §3.4 polynomial: {@code delay(n) = initial_interval * n^coefficient}. */
	POLYNOMIAL;

	/** The JSON value, e.g. {@code "exponential"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}

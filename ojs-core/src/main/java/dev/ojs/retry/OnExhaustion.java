package dev.ojs.retry;

import java.util.Locale;

/**
 * What happens when attempts are exhausted or a non-retryable error occurs (spec §2.2
 * {@code on_exhaustion}, RET-17).
 */
public enum OnExhaustion {

	/** The job is discarded and may be pruned. The spec default. */
	DISCARD,
	/** The job is kept in the dead letter queue for inspection and replay. */
	DEAD_LETTER;

	/** The JSON value: {@code "discard"} or {@code "dead_letter"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}

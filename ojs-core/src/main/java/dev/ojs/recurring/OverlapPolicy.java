package dev.ojs.recurring;

import java.util.Arrays;
import java.util.Locale;

/**
 * What an occurrence does while the recurring job's previous job is unfinished (ojs-cron.md §6,
 * CRON-18/19). Unfinished means scheduled, available, active or retryable.
 */
public enum OverlapPolicy {

	/** The occurrence is skipped ({@code cron.skipped}, reason {@code overlap_skip}); the default (CRON-19). */
	SKIP("skip"),

	/** The occurrence's job is enqueued regardless. */
	ALLOW("allow"),

	/** The previous job is cancelled, then the occurrence's job is enqueued. */
	CANCEL_PREVIOUS("cancel_previous"),

	/** The occurrence waits: its job is enqueued once the previous job has finished, one at a time. */
	ENQUEUE("enqueue");

	private final String value;

	OverlapPolicy(String value) {
		this.value = value;
	}

	/** The spec's name, e.g. {@code cancel_previous}. */
	public String value() {
		return this.value;
	}

	/**
	 * The policy named {@code value} (the spec's name, in any case).
	 * @throws RecurringJobValidationException for an unknown name
	 */
	public static OverlapPolicy fromValue(String value) {
		for (OverlapPolicy policy : values()) {
			if (policy.value.equals(value.toLowerCase(Locale.ROOT))) {
				return policy;
			}
		}
		throw new RecurringJobValidationException("overlap_policy", "'" + value + "' is not one of "
				+ Arrays.stream(values()).map(OverlapPolicy::value).toList());
	}

}

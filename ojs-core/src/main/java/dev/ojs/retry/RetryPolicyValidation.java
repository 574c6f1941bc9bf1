package dev.ojs.retry;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The value rules of spec §11.1 and §14 for a (possibly partial) {@link RetryPolicy}. JSON
 * type rules live in {@link RetryPolicyJson}; these apply to every policy however it was
 * built. Unset fields are not checked.
 */
final class RetryPolicyValidation {

	private RetryPolicyValidation() {
	}

	static void validate(RetryPolicy policy) {
		Integer maxAttempts = policy.maxAttempts();
		// §11.1: max_attempts MUST be a non-negative integer (§14 minimum 0)
		if (maxAttempts != null && maxAttempts < 0) {
			throw invalid("max_attempts", maxAttempts, "must be a non-negative integer");
		}
		// §11.1: initial_interval MUST be greater than zero
		requirePositive("initial_interval", policy.initialInterval());
		Double coefficient = policy.backoffCoefficient();
		// §2.2 / §11.1: backoff_coefficient MUST be >= 1.0 (RET-03), and a finite number (§14 type number)
		if (coefficient != null && !(coefficient >= 1.0)) {
			throw invalid("backoff_coefficient", coefficient, "must be >= 1.0");
		}
		if (coefficient != null && coefficient.isInfinite()) {
			throw invalid("backoff_coefficient", coefficient, "must be a finite number");
		}
		// §11.1: max_interval MUST be >= initial_interval > 0
		requirePositive("max_interval", policy.maxInterval());
		if (policy.initialInterval() != null && policy.maxInterval() != null
				&& policy.maxInterval().compareTo(policy.initialInterval()) < 0) {
			throw invalid("max_interval", policy.maxInterval(),
					"must be >= initial_interval (" + IsoDurations.format(policy.initialInterval()) + ")");
		}
		// §14: non_retryable_errors items are strings with minLength 1
		if (policy.nonRetryableErrors() != null) {
			for (String entry : policy.nonRetryableErrors()) {
				if (entry == null || entry.isEmpty()) {
					throw invalid("non_retryable_errors", entry, "entries must be non-empty strings");
				}
			}
		}
	}

	private static void requirePositive(String field, @Nullable Duration duration) {
		if (duration != null && (duration.isNegative() || duration.isZero())) {
			throw invalid(field, duration, "must be greater than zero");
		}
	}

	/**
	 * A validation failure with the message {@code "<field> <rule>, got <value>"}.
	 */
	static RetryPolicyValidationException invalid(String field, @Nullable Object value, String rule) {
		return new RetryPolicyValidationException(field, value, field + " " + rule + ", got " + display(value));
	}

	private static String display(@Nullable Object value) {
		if (value instanceof Duration duration && !duration.isNegative()) {
			return IsoDurations.format(duration);
		}
		if (value instanceof String string) {
			return "\"" + string + "\"";
		}
		return String.valueOf(value);
	}

}

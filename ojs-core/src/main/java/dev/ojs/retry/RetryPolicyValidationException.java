package dev.ojs.retry;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a retry policy violates the validation rules of spec §11.1 or the JSON
 * schema of §14 (RET-16, RET-19, RET-20). Its {@link #errorType() error type} is always
 * {@value #ERROR_TYPE}, the error type the spec assigns to every rule.
 */
public class RetryPolicyValidationException extends RuntimeException {

	/** The spec's error type for an invalid retry policy (§11.1). */
	public static final String ERROR_TYPE = "validation.retry_policy_invalid";

	private final String field;

	private final transient @Nullable Object value;

	/**
	 * Create a new exception.
	 * @param field the offending field in snake_case (e.g. {@code backoff_coefficient}),
	 * {@code retry_policy} when the policy as a whole is unreadable
	 * @param value the offending value as a plain Java value ({@code String},
	 * {@code Number}, {@code Boolean}, {@code Duration}, {@code List}, {@code Map} or
	 * {@code null}); for unreadable JSON the JSON text
	 * @param message a message a user can act on
	 */
	public RetryPolicyValidationException(String field, @Nullable Object value, String message) {
		super(message);
		this.field = field;
		this.value = value;
	}

	/** Always {@value #ERROR_TYPE}. */
	public String errorType() {
		return ERROR_TYPE;
	}

	/** The offending field in snake_case, or {@code retry_policy}. */
	public String field() {
		return this.field;
	}

	/** The offending value (may be {@code null}). */
	public @Nullable Object value() {
		return this.value;
	}

}

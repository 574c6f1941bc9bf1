package dev.ojs.retry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A handler failure in the spec's error response format (§7.3).
 *
 * @param type dot-namespaced error type used for {@code non_retryable_errors} matching
 * @param message human-readable description (never {@code null})
 * @param code response code; {@link ErrorCode#RETRY} when omitted
 * @param details structured data for debugging (never {@code null})
 */
public record JobError(String type, String message, ErrorCode code, Map<String, @Nullable Object> details) {

	public JobError {
		Objects.requireNonNull(type, "type must not be null");
		if (type.isBlank()) {
			throw new IllegalArgumentException("type must not be blank");
		}
		message = (message != null) ? message : "";
		code = (code != null) ? code : ErrorCode.RETRY;
		details = copyOfDetails(details);
	}

	/**
	 * An unmodifiable copy of error details in their order. Unlike {@link Map#copyOf}, values
	 * may be {@code null} (JSON {@code null} is a valid detail), so details never make a
	 * failure report itself fail.
	 * @param details the details, may be {@code null} (none)
	 * @return the copy
	 */
	public static Map<String, @Nullable Object> copyOfDetails(@Nullable Map<String, ?> details) {
		return (details == null || details.isEmpty()) ? Map.of()
				: Collections.unmodifiableMap(new LinkedHashMap<>(details));
	}

	/**
	 * The error type of an exception class: its fully-qualified name with nested classes
	 * joined by {@code '.'} (not {@code '$'}), so that a dot-namespaced
	 * {@code non_retryable_errors} prefix such as {@code "com.acme.Outer.*"} matches it (spec
	 * §6.1, §6.2).
	 */
	public static String typeOf(Class<? extends Throwable> exceptionClass) {
		return exceptionClass.getName().replace('$', '.');
	}

	/** A plain failure of {@code exception}: its {@link #typeOf type}, message, code RETRY. */
	public static JobError of(Throwable exception) {
		return of(typeOf(exception.getClass()), String.valueOf(exception.getMessage()));
	}

	/** A plain failure: code {@link ErrorCode#RETRY}, no details. */
	public static JobError of(String type, String message) {
		return new JobError(type, message, ErrorCode.RETRY, Map.of());
	}

}

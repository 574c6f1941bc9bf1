package dev.ojs.retry;

import java.util.Map;
import java.util.Objects;

/**
 * A handler failure in the spec's error response format (§7.3).
 *
 * @param type dot-namespaced error type used for {@code non_retryable_errors} matching
 * @param message human-readable description (never {@code null})
 * @param code response code; {@link ErrorCode#RETRY} when omitted
 * @param details structured data for debugging (never {@code null})
 */
public record JobError(String type, String message, ErrorCode code, Map<String, Object> details) {

	public JobError {
		Objects.requireNonNull(type, "type must not be null");
		if (type.isBlank()) {
			throw new IllegalArgumentException("type must not be blank");
		}
		message = (message != null) ? message : "";
		code = (code != null) ? code : ErrorCode.RETRY;
		details = (details != null) ? Map.copyOf(details) : Map.of();
	}

	/** A plain failure: code {@link ErrorCode#RETRY}, no details. */
	public static JobError of(String type, String message) {
		return new JobError(type, message, ErrorCode.RETRY, Map.of());
	}

}

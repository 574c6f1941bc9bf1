package dev.ojs.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The error body of the OJS HTTP binding, also used by the Admin API
 * ({@code ../spec/README.md} decision 4): {@code {"error": {"code", "message", "retryable",
 * "details", "request_id"}}}, with the binding's lowercase codes.
 *
 * @param code lowercase binding code, e.g. {@code not_found}
 * @param message for people
 * @param retryable whether the same request may succeed later
 * @param details machine-readable details; empty when none
 * @param requestId the request's id, echoed from {@code X-Request-Id} or generated
 */
public record ApiError(String code, String message, boolean retryable, Map<String, Object> details,
		@Nullable String requestId) {

	public static final String NOT_FOUND = "not_found";

	public static final String INVALID_REQUEST = "invalid_request";

	public static final String VALIDATION_ERROR = "validation_error";

	public static final String DUPLICATE = "duplicate";

	public static final String CONFLICT = "conflict";

	public static final String QUEUE_PAUSED = "queue_paused";

	public static final String UNSUPPORTED = "unsupported";

	public static final String UNAUTHORIZED = "unauthorized";

	public static final String FORBIDDEN = "forbidden";

	public static final String INTERNAL_ERROR = "internal_error";

	public ApiError {
		details = Map.copyOf(details);
	}

	/** The wire shape: {@code {"error": {...}}}. */
	public Map<String, Object> toBody() {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", this.code);
		error.put("message", this.message);
		error.put("retryable", this.retryable);
		error.put("details", this.details);
		error.put("request_id", this.requestId);
		return Map.of("error", error);
	}

}

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

	/** Where the binding's error codes are described; the code is the fragment. */
	public static final String DOCS_URL = "https://openjobspec.org/spec/ojs-http-binding#";

	public static final String NOT_FOUND = "not_found";

	public static final String INVALID_PAYLOAD = "invalid_payload";

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
		error.put("type", this.code);
		error.put("message", this.message);
		error.put("retryable", this.retryable);
		error.put("details", this.details);
		error.put("request_id", this.requestId);
		error.put("hint", hint(this.code, this.retryable));
		error.put("docs_url", DOCS_URL + this.code);
		return Map.of("error", error);
	}

	/** What a client can do about an error of the code. */
	static String hint(String code, boolean retryable) {
		return switch (code) {
			case NOT_FOUND -> "Check the identifier or path; the resource may never have existed or may have been pruned.";
			case INVALID_PAYLOAD -> "Send the request body as a JSON object.";
			case INVALID_REQUEST, VALIDATION_ERROR -> "Correct the field named in the message and details, then send the request again.";
			case DUPLICATE -> "A job with this id or unique key exists; details.existing_job_id names it.";
			case CONFLICT -> "The resource's current state does not allow this operation; read it again before retrying.";
			case UNAUTHORIZED -> "Send the configured bearer token in the Authorization header.";
			case FORBIDDEN -> "The credentials are valid but not allowed to perform this operation.";
			case UNSUPPORTED -> "This server does not implement the feature; see GET /ojs/manifest.";
			default -> retryable ? "The request may succeed later; retry with backoff."
					: "The request will not succeed as sent; do not retry it unchanged.";
		};
	}

}

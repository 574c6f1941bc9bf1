package dev.ojs.web;

import java.util.Map;

/**
 * A request the Admin API or the HTTP binding refuses, with its status and binding code.
 * Controllers throw it; {@link ApiExceptionHandler} writes the {@link ApiError} body.
 */
public class ApiException extends RuntimeException {

	private final int status;

	private final String code;

	private final boolean retryable;

	private final Map<String, Object> details;

	public ApiException(int status, String code, String message, boolean retryable, Map<String, Object> details) {
		super(message);
		this.status = status;
		this.code = code;
		this.retryable = retryable;
		this.details = Map.copyOf(details);
	}

	public static ApiException notFound(String message) {
		return new ApiException(404, ApiError.NOT_FOUND, message, false, Map.of());
	}

	public static ApiException invalidRequest(String message) {
		return invalidRequest(message, Map.of());
	}

	public static ApiException invalidRequest(String message, Map<String, Object> details) {
		return new ApiException(400, ApiError.INVALID_REQUEST, message, false, details);
	}

	public static ApiException conflict(String message) {
		return new ApiException(409, ApiError.CONFLICT, message, false, Map.of());
	}

	public static ApiException forbidden(String message) {
		return new ApiException(403, ApiError.FORBIDDEN, message, false, Map.of());
	}

	public static ApiException unsupported(String message) {
		return new ApiException(501, ApiError.UNSUPPORTED, message, false, Map.of());
	}

	public int status() {
		return this.status;
	}

	public ApiError toError(String requestId) {
		return new ApiError(this.code, getMessage(), this.retryable, this.details, requestId);
	}

}

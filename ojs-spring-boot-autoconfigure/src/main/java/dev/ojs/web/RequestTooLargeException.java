package dev.ojs.web;

import java.io.IOException;

/**
 * Thrown while reading a request body that passes its limit ({@link RequestSizeFilter}).
 * However the reader wraps it, {@link ApiExceptionHandler} finds it in the cause chain and
 * answers {@code 413}.
 */
public class RequestTooLargeException extends IOException {

	private final long limit;

	public RequestTooLargeException(long limit) {
		super("The request body is larger than " + limit + " bytes");
		this.limit = limit;
	}

	/** The limit, in bytes. */
	public long limit() {
		return this.limit;
	}

	/** The refusal: {@code 413 invalid_request}, not retryable, with the limit. */
	public static ApiException refusal(long limit) {
		return new ApiException(413, ApiError.INVALID_REQUEST,
				"The request body is larger than the limit of " + limit + " bytes.", false,
				java.util.Map.of("field", "body", "max_bytes", limit));
	}

}

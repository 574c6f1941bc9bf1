package dev.ojs.web;

import java.util.Map;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Writes every refusal of an OJS controller (package {@code dev.ojs.web} and below) as the
 * binding's {@link ApiError} body: {@link ApiException}s with their status, unreadable or
 * mistyped input as {@code 400 invalid_request}, never a 5xx for bad input.
 */
@RestControllerAdvice(basePackages = "dev.ojs.web")
public class ApiExceptionHandler {

	private static final Log logger = LogFactory.getLog(ApiExceptionHandler.class);

	/** The binding's code for a storage failure (ojs-http-binding.md §16.3). */
	static final String BACKEND_ERROR = "backend_error";

	/** Request header whose value becomes the error's {@code request_id}. */
	public static final String REQUEST_ID_HEADER = "X-Request-Id";

	@ExceptionHandler(ApiException.class)
	ResponseEntity<Map<String, Object>> api(ApiException ex, HttpServletRequest request) {
		return ResponseEntity.status(ex.status()).body(ex.toError(requestId(request)).toBody());
	}

	@ExceptionHandler({ HttpMessageNotReadableException.class, MissingServletRequestParameterException.class,
			MethodArgumentTypeMismatchException.class, IllegalArgumentException.class })
	ResponseEntity<Map<String, Object>> invalid(Exception ex, HttpServletRequest request) {
		String message = (ex instanceof HttpMessageNotReadableException) ? "The request body is not valid JSON"
				: String.valueOf(ex.getMessage());
		return api(ApiException.invalidRequest(message), request);
	}

	@ExceptionHandler(HttpMediaTypeNotSupportedException.class)
	ResponseEntity<Map<String, Object>> mediaType(HttpMediaTypeNotSupportedException ex, HttpServletRequest request) {
		ApiException refused = new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.value(), ApiError.INVALID_REQUEST,
				String.valueOf(ex.getMessage()), false, Map.of());
		return api(refused, request);
	}

	@ExceptionHandler(HttpRequestMethodNotSupportedException.class)
	ResponseEntity<Map<String, Object>> method(HttpRequestMethodNotSupportedException ex,
			HttpServletRequest request) {
		ApiException refused = new ApiException(HttpStatus.METHOD_NOT_ALLOWED.value(), ApiError.INVALID_REQUEST,
				String.valueOf(ex.getMessage()), false, Map.of());
		return api(refused, request);
	}

	/**
	 * What no other handler takes: Spring's own request errors with their status, an
	 * unreachable database as {@code 503 backend_error} (retryable), anything else as
	 * {@code 500 internal_error} without internals in the message.
	 */
	@ExceptionHandler(Exception.class)
	ResponseEntity<Map<String, Object>> unexpected(Exception ex, HttpServletRequest request) throws Exception {
		if (ex.getClass().getName().startsWith("org.springframework.security.")) {
			// access decisions inside a controller belong to Spring Security's own handling
			throw ex;
		}
		if (ex instanceof ErrorResponse response) {
			int status = response.getStatusCode().value();
			String code = (status == 404) ? ApiError.NOT_FOUND
					: (status >= 500) ? ApiError.INTERNAL_ERROR : ApiError.INVALID_REQUEST;
			return api(new ApiException(status, code, String.valueOf(ex.getMessage()), status >= 500, Map.of()), request);
		}
		if (ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessException) {
			logger.warn("OJS API request failed: the database is unavailable: " + ex);
			return api(new ApiException(503, BACKEND_ERROR, "The job store is unavailable.", true, Map.of()), request);
		}
		logger.error("OJS API request failed", ex);
		return api(new ApiException(500, ApiError.INTERNAL_ERROR, "Unexpected server error.", true, Map.of()), request);
	}

	public static String requestId(HttpServletRequest request) {
		String given = request.getHeader(REQUEST_ID_HEADER);
		if (given != null && !given.isBlank() && given.length() <= 128) {
			return given;
		}
		return "req_" + UUID.randomUUID();
	}

}

package dev.ojs.web;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingPathVariableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

import dev.ojs.spring.OjsValidationException;

/**
 * Writes every refusal of an OJS controller (package {@code dev.ojs.web} and below) as the
 * binding's {@link ApiError} body: {@link ApiException}s with their status, a service's
 * {@link OjsValidationException} as {@code 400 invalid_request} with its message, unreadable or
 * mistyped input as {@code 400 invalid_request}, a body past its limit as {@code 413}, never
 * a 5xx for bad input. {@link #refusal(Throwable)} is the one translation of an exception to
 * an answer, also used by {@link OjsErrorResolver} where no OJS controller was found. The
 * messages are the starter's own: no framework message, class name or exception text of a
 * library reaches the body.
 */
@RestControllerAdvice(basePackages = "dev.ojs.web")
public class ApiExceptionHandler {

	private static final Log logger = LogFactory.getLog(ApiExceptionHandler.class);

	/** The binding's code for a storage failure (ojs-http-binding.md §16.3). */
	static final String BACKEND_ERROR = "backend_error";

	/** Request header whose value becomes the error's {@code request_id}. */
	public static final String REQUEST_ID_HEADER = "X-Request-Id";

	/** A qualified Java name ({@code java.lang.String}, {@code org.springframework.X}) or an exception's name. */
	private static final Pattern INTERNAL = Pattern
		.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z][\\w$]*|Exception\\b|\\bjava\\.|\\bjakarta\\.");

	@ExceptionHandler(Exception.class)
	ResponseEntity<Map<String, Object>> handle(Exception ex, HttpServletRequest request) throws Exception {
		ApiException refusal = refusal(ex);
		if (refusal == null) {
			throw ex;
		}
		ResponseEntity.BodyBuilder answer = ResponseEntity.status(refusal.status());
		answer.contentType(MediaType.parseMediaType(ErrorBodies.mediaType(request)));
		String allow = allow(ex);
		if (allow != null) {
			answer.header("Allow", allow);
		}
		return answer.body(refusal.toError(requestId(request)).toBody());
	}

	/** The {@code Allow} header of a {@code 405}, or {@code null}. */
	static @Nullable String allow(Throwable ex) {
		if (ex instanceof HttpRequestMethodNotSupportedException method && method.getSupportedMethods() != null) {
			return String.join(", ", method.getSupportedMethods());
		}
		return null;
	}

	/**
	 * The answer to an exception raised while serving an OJS request, or {@code null} for one
	 * that belongs to Spring Security's own handling (access decisions). Bad input is a 4xx
	 * with a message naming what was wrong; an unreachable database {@code 503 backend_error}
	 * (retryable); anything else {@code 500 internal_error} without internals, logged.
	 */
	public static @Nullable ApiException refusal(Throwable ex) {
		if (ex instanceof ApiException api) {
			return api;
		}
		if (ex instanceof OjsValidationException invalid) {
			// a service's refusal: the same message as the Java API's, the field as the request named it
			return ApiException.invalidRequest(invalid.getMessage(), invalid.getDetails());
		}
		if (ex.getClass().getName().startsWith("org.springframework.security.")) {
			return null;
		}
		RequestTooLargeException tooLarge = cause(ex, RequestTooLargeException.class);
		if (tooLarge != null) {
			return RequestTooLargeException.refusal(tooLarge.limit());
		}
		if (ex instanceof HttpMessageNotReadableException) {
			return ApiException.invalidRequest("The request body is not valid JSON or not of the expected shape.",
					Map.of("field", "body"));
		}
		if (ex instanceof MissingServletRequestParameterException missing) {
			return ApiException.invalidRequest("The query parameter '" + missing.getParameterName() + "' is required.",
					Map.of("parameter", missing.getParameterName()));
		}
		if (ex instanceof MethodArgumentTypeMismatchException mismatch) {
			String expected = expected(mismatch.getRequiredType());
			return ApiException.invalidRequest("The parameter '" + mismatch.getName() + "' must be " + expected + ".",
					Map.of("parameter", mismatch.getName(), "expected", expected));
		}
		if (ex instanceof MissingPathVariableException missing) {
			return ApiException.invalidRequest("The path variable '" + missing.getVariableName() + "' is required.",
					Map.of("parameter", missing.getVariableName()));
		}
		if (ex instanceof NoHandlerFoundException || ex instanceof NoResourceFoundException) {
			return new ApiException(404, ApiError.NOT_FOUND, "There is no OJS endpoint at this path.", false,
					Map.of("resource_type", "endpoint"));
		}
		if (ex instanceof HttpRequestMethodNotSupportedException method) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("method", method.getMethod());
			if (method.getSupportedMethods() != null) {
				details.put("allowed_methods", java.util.List.of(method.getSupportedMethods()));
			}
			return new ApiException(405, ApiError.INVALID_REQUEST,
					"The method " + method.getMethod() + " is not allowed at this path.", false, details);
		}
		if (ex instanceof HttpMediaTypeNotSupportedException) {
			return new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE.value(), ApiError.INVALID_REQUEST,
					"The Content-Type must be " + MediaType.APPLICATION_JSON_VALUE + ".", false,
					Map.of("field", "Content-Type"));
		}
		if (ex instanceof HttpMediaTypeNotAcceptableException) {
			return new ApiException(406, ApiError.INVALID_REQUEST, "The answer is JSON; the Accept header refuses it.",
					false, Map.of("field", "Accept"));
		}
		if (ex instanceof MultipartException) {
			return ApiException.invalidRequest("The request body must be JSON.", Map.of("field", "body"));
		}
		if (ex instanceof IllegalArgumentException) {
			// the starter's own validation messages; a library's are replaced
			return ApiException.invalidRequest(safeMessage(ex.getMessage(), "The request is invalid."));
		}
		if (ex instanceof ErrorResponse response) {
			int status = response.getStatusCode().value();
			String code = (status == 404) ? ApiError.NOT_FOUND
					: (status >= 500) ? ApiError.INTERNAL_ERROR : ApiError.INVALID_REQUEST;
			HttpStatus known = HttpStatus.resolve(status);
			String message = (known != null) ? known.getReasonPhrase() + "." : "The request failed.";
			return new ApiException(status, code, message, status >= 500, Map.of());
		}
		if (ex instanceof DuplicateKeyException) {
			// a job with a chosen id inserted concurrently in the caller's transaction
			return new ApiException(409, ApiError.DUPLICATE, "A resource with the same identity already exists.", false,
					Map.of());
		}
		if (ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessException) {
			logger.warn("OJS API request failed: the database is unavailable: " + ex);
			return new ApiException(503, BACKEND_ERROR, "The job store is unavailable.", true, Map.of());
		}
		logger.error("OJS API request failed", ex);
		return new ApiException(500, ApiError.INTERNAL_ERROR, "Unexpected server error.", true, Map.of());
	}

	/** The first throwable of the type in the cause chain, or {@code null}. */
	private static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
		Throwable current = ex;
		for (int depth = 0; current != null && depth < 32; depth++) {
			if (type.isInstance(current)) {
				return type.cast(current);
			}
			current = current.getCause();
		}
		return null;
	}

	/** What a parameter of a type must be, in the binding's words. */
	private static String expected(@Nullable Class<?> type) {
		if (type == null) {
			return "a valid value";
		}
		if (type == Integer.class || type == int.class || type == Long.class || type == long.class
				|| type == Short.class || type == short.class) {
			return "an integer";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "true or false";
		}
		if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
			return "a number";
		}
		return "a valid value";
	}

	/** The message, unless it names Java types or packages; then the fallback. */
	static String safeMessage(@Nullable String message, String fallback) {
		if (message == null || message.isBlank() || INTERNAL.matcher(message).find()
				|| message.toLowerCase(Locale.ROOT).contains("springframework")) {
			return fallback;
		}
		return message;
	}

	public static String requestId(HttpServletRequest request) {
		String given = request.getHeader(REQUEST_ID_HEADER);
		if (given != null && !given.isBlank() && given.length() <= 128) {
			return given;
		}
		return "req_" + UUID.randomUUID();
	}

}

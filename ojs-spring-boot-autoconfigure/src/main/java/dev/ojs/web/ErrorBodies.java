package dev.ojs.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.http.OjsHttp;

/**
 * Writes a refusal as the binding's error body from a servlet filter or a security handler,
 * where no controller advice runs: the status, the media type of {@link #mediaType}, the
 * {@code OJS-Version} header, and the {@link ApiError} body with the request's id.
 */
public final class ErrorBodies {

	/** The binding's media type (ojs-http-binding.md §4.1). */
	public static final String MEDIA_TYPE = "application/openjobspec+json";

	private ErrorBodies() {
	}

	/**
	 * The media type of an error answer: the binding's when the request accepts it, JSON when
	 * the request asks for JSON and not the binding's type, otherwise the binding's own under
	 * its paths and JSON elsewhere (the Admin API). A filter's refusal, written before any
	 * route is known, falls back to the binding's type.
	 */
	public static String mediaType(HttpServletRequest request) {
		String negotiated = negotiated(request);
		if (negotiated != null) {
			return negotiated;
		}
		return OjsPaths.isBinding(OjsPaths.routedPath(request)) ? MEDIA_TYPE : MediaType.APPLICATION_JSON_VALUE;
	}

	/** The error type the request's {@code Accept} asks for, or {@code null} when it asks for neither. */
	private static @Nullable String negotiated(HttpServletRequest request) {
		String accept = request.getHeader("Accept");
		List<MediaType> accepted = List.of();
		if (accept != null) {
			try {
				accepted = MediaType.parseMediaTypes(accept);
			}
			catch (InvalidMediaTypeException ex) {
				// an unreadable Accept header asks for nothing in particular
			}
		}
		for (MediaType type : accepted) {
			if (type.equalsTypeAndSubtype(OjsHttp.MEDIA_TYPE)) {
				return MEDIA_TYPE;
			}
		}
		for (MediaType type : accepted) {
			if (type.equalsTypeAndSubtype(MediaType.APPLICATION_JSON)) {
				return MediaType.APPLICATION_JSON_VALUE;
			}
		}
		return null;
	}

	public static void write(JsonMapper jsonMapper, HttpServletRequest request, HttpServletResponse response,
			ApiException refusal) throws IOException {
		String requestId = response.getHeader(ApiExceptionHandler.REQUEST_ID_HEADER);
		if (requestId == null) {
			requestId = ApiExceptionHandler.requestId(request);
			response.setHeader(ApiExceptionHandler.REQUEST_ID_HEADER, requestId);
		}
		if (response.getHeader(OjsHttp.VERSION_HEADER) == null) {
			response.setHeader(OjsHttp.VERSION_HEADER, OjsHttp.VERSION);
		}
		response.setStatus(refusal.status());
		// a filter's refusal (also of a path no surface routes) is the binding's error body
		String negotiated = negotiated(request);
		response.setContentType((negotiated != null) ? negotiated : MEDIA_TYPE);
		response.setCharacterEncoding("UTF-8");
		jsonMapper.writeValue(response.getOutputStream(), refusal.toError(requestId).toBody());
	}

}

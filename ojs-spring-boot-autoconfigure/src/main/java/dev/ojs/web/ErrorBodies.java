package dev.ojs.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.http.OjsHttp;

/**
 * Writes a refusal as the binding's error body from a servlet filter or a security handler,
 * where no controller advice runs: the status, {@code application/openjobspec+json}, the
 * {@code OJS-Version} header, and the {@link ApiError} body with the request's id.
 */
public final class ErrorBodies {

	/** The binding's media type (ojs-http-binding.md §4.1). */
	public static final String MEDIA_TYPE = "application/openjobspec+json";

	private ErrorBodies() {
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
		response.setContentType(MEDIA_TYPE);
		response.setCharacterEncoding("UTF-8");
		jsonMapper.writeValue(response.getOutputStream(), refusal.toError(requestId).toBody());
	}

}

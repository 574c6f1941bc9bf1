package dev.ojs.web.http;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.UUID;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.ErrorBodies;
import dev.ojs.web.OjsPaths;

/**
 * The binding's protocol rules for every request to it (not to the Admin API): the
 * {@code OJS-Version}, {@code X-Request-Id} and {@code Content-Type:
 * application/openjobspec+json} response headers (ojs-http-binding.md §3.2, §4.3, §6.5),
 * {@code 422 unsupported} for a requested version other than 1.x (§3.2), and
 * {@code 400 invalid_request} for a request body that is not {@code application/json} or
 * {@code application/openjobspec+json} (§4.1).
 */
public class OjsHttpFilter extends OncePerRequestFilter {

	private static final int MAX_REQUEST_ID_LENGTH = 128;

	private final JsonMapper jsonMapper;

	public OjsHttpFilter(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !OjsPaths.isBinding(OjsPaths.routedPath(request));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String requestId = request.getHeader(ApiExceptionHandler.REQUEST_ID_HEADER);
		boolean given = requestId != null && !requestId.isBlank() && requestId.length() <= MAX_REQUEST_ID_LENGTH;
		if (!given) {
			requestId = "req_" + UUID.randomUUID();
		}
		response.setHeader(OjsHttp.VERSION_HEADER, OjsHttp.VERSION);
		response.setHeader(ApiExceptionHandler.REQUEST_ID_HEADER, requestId);
		response.setContentType(OjsHttp.MEDIA_TYPE_VALUE);
		String version = request.getHeader(OjsHttp.VERSION_HEADER);
		if (version != null && !(version.trim().equals("1") || version.trim().startsWith("1."))) {
			refuse(request, response, new ApiException(422, ApiError.UNSUPPORTED,
					"OJS version '" + version + "' is not supported; this server speaks " + OjsHttp.VERSION + ".", false,
					Map.of("supported_versions", java.util.List.of(OjsHttp.VERSION))));
			return;
		}
		if (hasBody(request) && !isJson(request.getContentType())) {
			refuse(request, response, ApiException.invalidRequest("The Content-Type must be "
					+ OjsHttp.MEDIA_TYPE_VALUE + " or application/json.", Map.of("field", "Content-Type")));
			return;
		}
		chain.doFilter(given ? request : new RequestIdRequest(request, requestId), response);
	}

	/**
	 * A POST, PUT or PATCH with content or a declared media type (§6.1); one without either (a
	 * pause, a dead-letter retry) needs none. An empty form post still declares its type, so a
	 * page on another site cannot pass it off as a bodiless command. GET and DELETE carry none.
	 */
	private static boolean hasBody(HttpServletRequest request) {
		String method = request.getMethod();
		boolean writes = "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
		return writes && (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null
				|| request.getContentType() != null);
	}

	static boolean isJson(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return type.equalsTypeAndSubtype(MediaType.APPLICATION_JSON) || type.equalsTypeAndSubtype(OjsHttp.MEDIA_TYPE);
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, ApiException refusal)
			throws IOException {
		ErrorBodies.write(this.jsonMapper, request, response, refusal);
	}

	/** The request with the generated request id, so error bodies echo it. */
	private static final class RequestIdRequest extends HttpServletRequestWrapper {

		private final String requestId;

		RequestIdRequest(HttpServletRequest request, String requestId) {
			super(request);
			this.requestId = requestId;
		}

		@Override
		public @Nullable String getHeader(String name) {
			return ApiExceptionHandler.REQUEST_ID_HEADER.equalsIgnoreCase(name) ? this.requestId : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return ApiExceptionHandler.REQUEST_ID_HEADER.equalsIgnoreCase(name)
					? Collections.enumeration(java.util.List.of(this.requestId)) : super.getHeaders(name);
		}

	}

}

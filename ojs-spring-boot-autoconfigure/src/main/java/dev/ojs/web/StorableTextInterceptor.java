package dev.ojs.web;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Applies {@link StorableText} to the query parameters and path variables of every request
 * under {@link OjsPaths#ROOT}, before its controller acts: one that holds U+0000 or an
 * unpaired surrogate is refused with {@code 400 invalid_request} naming the parameter, and
 * a query string the servlet container cannot decode with {@code 400} too.
 */
public class StorableTextInterceptor implements HandlerInterceptor {

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (!OjsPaths.isUnder(OjsPaths.routedPath(request), OjsPaths.ROOT)) {
			return true;
		}
		String query = request.getQueryString();
		String contentType = request.getContentType();
		// a form body is left unread: no OJS endpoint takes one
		boolean form = contentType != null && contentType.toLowerCase(java.util.Locale.ROOT)
			.startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE);
		if (query != null && !query.isEmpty() && !form) {
			Map<String, String[]> parameters;
			try {
				parameters = request.getParameterMap();
			}
			catch (IllegalStateException ex) {
				// the servlet container could not decode it (not UTF-8)
				throw ApiException.invalidRequest("The query string is not valid percent-encoded UTF-8.",
						Map.of("field", "query"));
			}
			parameters.forEach(StorableText::checkParameter);
		}
		if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables) {
			variables.forEach((name, value) -> StorableText.checkParameter(String.valueOf(name), String.valueOf(value)));
		}
		return true;
	}

}

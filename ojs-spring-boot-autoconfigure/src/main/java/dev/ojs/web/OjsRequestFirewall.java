package dev.ojs.web;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses, before anything else decides, a request aimed at an OJS surface whose path is not
 * spelled canonically ({@link OjsPaths#isCanonical}): percent-encoded letters, path
 * parameters, {@code ..}, {@code //} or another case of the surface's prefix. The servlet
 * container, Spring MVC and Spring Security each read such a path in their own way; after
 * this filter they all read the same one. Like Spring Security's {@code StrictHttpFirewall},
 * it answers {@code 400}, here with the binding's error body. Requests for the application's
 * own paths pass untouched.
 */
public class OjsRequestFirewall extends OncePerRequestFilter {

	private final List<String> prefixes;

	private final JsonMapper jsonMapper;

	/**
	 * @param prefixes the paths, relative to the context path, under which the OJS surfaces
	 * lie ({@link OjsPaths#ROOT} and the dashboard's path)
	 */
	public OjsRequestFirewall(List<String> prefixes, JsonMapper jsonMapper) {
		this.prefixes = List.copyOf(prefixes);
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String raw = rawPath(request);
		String lenient = OjsPaths.lenientPath(raw);
		for (String prefix : this.prefixes) {
			if (OjsPaths.isUnder(lenient, prefix.toLowerCase(Locale.ROOT))
					&& !(OjsPaths.isCanonical(raw) && OjsPaths.isUnder(raw, prefix)
							&& raw.equals(OjsPaths.routedPath(request)))) {
				ErrorBodies.write(this.jsonMapper, request, response, ApiException.invalidRequest(
						"The request path is not in canonical form.", Map.of("field", "path")));
				return;
			}
		}
		chain.doFilter(request, response);
	}

	/** The request URI less the context path, as sent. */
	private static String rawPath(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		return uri.startsWith(contextPath) ? uri.substring(contextPath.length()) : uri;
	}

}

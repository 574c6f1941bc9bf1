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
 * The first filter of every request aimed at an OJS surface, ahead of authentication, in
 * every mode (with or without Spring Security):
 * <ul>
 * <li>a path not spelled canonically ({@link OjsPaths#isCanonical}: percent-encoded letters,
 * path parameters, {@code ..}, {@code //}, another case of the surface's prefix or of a fixed
 * sub-path such as {@code /ojs/v1}) is refused
 * with {@code 400}, as Spring Security's {@code StrictHttpFirewall} does. The servlet
 * container, Spring MVC and Spring Security each read such a path in their own way; after
 * this filter they all read the same one;</li>
 * <li>a write that a browser sent from another origin ({@link CrossOrigin}) is refused with
 * {@code 403}, whatever credential the browser attached to it.</li>
 * </ul>
 * Requests for the application's own paths pass untouched. Refusals carry the binding's error
 * body.
 */
public class OjsRequestGuard extends OncePerRequestFilter {

	private final List<String> prefixes;

	private final JsonMapper jsonMapper;

	/**
	 * @param prefixes the paths, relative to the context path, under which the OJS surfaces
	 * lie ({@link OjsPaths#ROOT}, the dashboard's path, the OJS actuator endpoints), and those
	 * of their fixed sub-paths whose case a request must keep too ({@link OjsPaths#BASE_PATH},
	 * ...)
	 */
	public OjsRequestGuard(List<String> prefixes, JsonMapper jsonMapper) {
		this.prefixes = List.copyOf(prefixes);
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String raw = rawPath(request);
		String lenient = OjsPaths.lenientPath(raw);
		boolean guarded = false;
		for (String prefix : this.prefixes) {
			if (OjsPaths.isUnder(lenient, prefix.toLowerCase(Locale.ROOT))) {
				// every prefix the path is aimed at, in its one spelling (/ojs/V1/jobs is not /ojs/v1/jobs)
				if (!(OjsPaths.isCanonical(raw) && OjsPaths.isUnder(raw, prefix)
						&& raw.equals(OjsPaths.routedPath(request)))) {
					refuse(request, response, ApiException.invalidRequest("The request path is not in canonical form.",
							Map.of("field", "path")));
					return;
				}
				guarded = true;
			}
		}
		if (guarded && CrossOrigin.isCrossOriginWrite(request)) {
			refuse(request, response, ApiException.forbidden("Cross-origin writes are refused."));
			return;
		}
		chain.doFilter(request, response);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, ApiException refusal)
			throws IOException {
		ErrorBodies.write(this.jsonMapper, request, response, refusal);
	}

	/** The request URI less the context path, as sent. */
	private static String rawPath(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		return uri.startsWith(contextPath) ? uri.substring(contextPath.length()) : uri;
	}

}

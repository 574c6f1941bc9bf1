package dev.ojs.web;

import java.io.IOException;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Access to one OJS surface when Spring Security is not in use: every request to it carries
 * its bearer token ({@code Authorization: Bearer <token>}, ojs-http-binding.md §5.2), or,
 * where allowed explicitly, comes from the loopback interface with a {@code Host} that names
 * this application ({@link OwnHosts}). Others get {@code 401 unauthorized} (a foreign
 * {@code Host} on loopback, {@code 403 forbidden}) in the binding's error body. Which requests
 * belong to the surface is decided on the routed path ({@link OjsPaths#routedPath}).
 */
public class OjsAccessFilter extends OncePerRequestFilter {

	private final Predicate<String> surface;

	private final @Nullable BearerToken token;

	private final boolean allowLoopback;

	private final OwnHosts ownHosts;

	private final JsonMapper jsonMapper;

	/**
	 * @param surface which routed paths this filter guards
	 * @param token the surface's token, or {@code null}
	 * @param allowLoopback whether loopback clients need no token
	 * @param ownHosts the host names loopback clients may use
	 * @throws IllegalArgumentException when there is neither a token nor loopback access
	 */
	public OjsAccessFilter(Predicate<String> surface, @Nullable BearerToken token, boolean allowLoopback,
			OwnHosts ownHosts, JsonMapper jsonMapper) {
		if (token == null && !allowLoopback) {
			throw new IllegalArgumentException("A surface without a token must allow loopback clients");
		}
		this.surface = surface;
		this.token = token;
		this.allowLoopback = allowLoopback;
		this.ownHosts = ownHosts;
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !this.surface.test(OjsPaths.routedPath(request));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (this.token != null && this.token.matches(request.getHeader("Authorization"))) {
			chain.doFilter(request, response);
			return;
		}
		if (this.allowLoopback && OwnHosts.isLoopback(request.getRemoteAddr())) {
			if (this.ownHosts.isOwn(request.getHeader("Host"))) {
				chain.doFilter(request, response);
				return;
			}
			ErrorBodies.write(this.jsonMapper, request, response,
					ApiException.forbidden("The Host header does not name this application."));
			return;
		}
		response.setHeader("WWW-Authenticate", "Bearer realm=\"OJS\"");
		ErrorBodies.write(this.jsonMapper, request, response,
				new ApiException(401, ApiError.UNAUTHORIZED, "A valid bearer token is required.", false, Map.of()));
	}

}

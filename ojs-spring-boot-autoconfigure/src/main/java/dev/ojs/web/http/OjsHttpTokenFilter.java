package dev.ojs.web.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.ApiExceptionHandler;

/**
 * Guards the binding when Spring Security is absent: every request carries
 * {@code Authorization: Bearer <ojs.http.token>} (ojs-http-binding.md §5.2), or comes from
 * the loopback interface when {@code ojs.http.allow-unauthenticated-loopback} is set.
 * Others get {@code 401 unauthorized}.
 */
public class OjsHttpTokenFilter extends OncePerRequestFilter {

	private static final String BEARER = "Bearer ";

	private final byte @Nullable [] token;

	private final boolean allowLoopback;

	private final JsonMapper jsonMapper;

	/**
	 * @param token the bearer token, or {@code null} for none (then only loopback requests
	 * pass, and only when allowed)
	 * @throws IllegalStateException when there is neither a token nor loopback access
	 */
	public OjsHttpTokenFilter(@Nullable String token, boolean allowLoopback, JsonMapper jsonMapper) {
		boolean hasToken = token != null && !token.isBlank();
		if (!hasToken && !allowLoopback) {
			throw new IllegalStateException("The OJS HTTP binding (ojs.http.enabled=true) needs a bearer token without"
					+ " Spring Security: set ojs.http.token, or ojs.http.allow-unauthenticated-loopback=true to serve"
					+ " loopback clients only, or add Spring Security");
		}
		this.token = hasToken ? token.getBytes(StandardCharsets.UTF_8) : null;
		this.allowLoopback = allowLoopback;
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !OjsHttp.isBindingPath(request.getRequestURI().substring(request.getContextPath().length()));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (hasToken(request) || (this.allowLoopback && isLoopback(request.getRemoteAddr()))) {
			chain.doFilter(request, response);
			return;
		}
		response.setHeader("WWW-Authenticate", "Bearer");
		String requestId = response.getHeader(ApiExceptionHandler.REQUEST_ID_HEADER);
		OjsHttpFilter.write(this.jsonMapper, response, (requestId != null) ? requestId : "req_unknown",
				new ApiException(401, ApiError.UNAUTHORIZED, "A valid bearer token is required.", false, Map.of()));
	}

	private boolean hasToken(HttpServletRequest request) {
		String authorization = request.getHeader("Authorization");
		if (this.token == null || authorization == null || !authorization.startsWith(BEARER)) {
			return false;
		}
		byte[] given = authorization.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
		return MessageDigest.isEqual(this.token, given);
	}

	static boolean isLoopback(@Nullable String address) {
		if (address == null || address.isEmpty()) {
			return false;
		}
		try {
			// a literal address: no name lookup
			return InetAddress.getByName(address).isLoopbackAddress()
					&& (Character.digit(address.charAt(0), 16) >= 0 || address.charAt(0) == ':' || address.charAt(0) == '[');
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}

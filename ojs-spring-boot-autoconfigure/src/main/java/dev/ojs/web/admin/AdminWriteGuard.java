package dev.ojs.web.admin;

import java.util.Locale;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.HandlerInterceptor;

import dev.ojs.web.ApiException;

/**
 * Guards the Admin API's writes (issue 15 item 3): every write is refused while
 * {@code ojs.dashboard.read-only} is on, and a cross-site write is always refused: one whose
 * {@code Sec-Fetch-Site} is present and not {@code same-origin}, or whose {@code Origin} is
 * present and differs from the request's own scheme, host and port. The refusal is
 * {@code 403 forbidden} in the binding's error body.
 */
public class AdminWriteGuard implements HandlerInterceptor {

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	private final boolean readOnly;

	public AdminWriteGuard(boolean readOnly) {
		this.readOnly = readOnly;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (READS.contains(request.getMethod())) {
			return true;
		}
		if (this.readOnly) {
			throw ApiException.forbidden("The OJS dashboard is read-only (ojs.dashboard.read-only=true)");
		}
		if (isCrossSite(request)) {
			throw ApiException.forbidden("Cross-site writes to the OJS Admin API are refused");
		}
		return true;
	}

	static boolean isCrossSite(HttpServletRequest request) {
		String site = request.getHeader("Sec-Fetch-Site");
		if (site != null && !site.equalsIgnoreCase("same-origin")) {
			return true;
		}
		String origin = request.getHeader("Origin");
		return origin != null && !origin.equalsIgnoreCase(requestOrigin(request));
	}

	/** {@code scheme://host[:port]} of the request, the port left out when it is the scheme's default. */
	static String requestOrigin(HttpServletRequest request) {
		String scheme = request.getScheme().toLowerCase(Locale.ROOT);
		int port = request.getServerPort();
		boolean defaultPort = (port == 80 && scheme.equals("http")) || (port == 443 && scheme.equals("https"));
		return scheme + "://" + host(request.getServerName()) + (defaultPort || port < 0 ? "" : ":" + port);
	}

	private static String host(@Nullable String name) {
		String host = (name != null) ? name.toLowerCase(Locale.ROOT) : "";
		// IPv6 literals are bracketed in an origin
		return (host.contains(":") && !host.startsWith("[")) ? "[" + host + "]" : host;
	}

}

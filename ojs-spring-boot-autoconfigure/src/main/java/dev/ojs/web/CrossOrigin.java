package dev.ojs.web;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

/**
 * Tells a write that a browser sent from another origin, as Go's {@code CrossOriginProtection}
 * and the Fetch Metadata guidance do: a browser that sends {@code Sec-Fetch-Site} is believed
 * ({@code same-origin} and {@code none} pass); without it, an {@code Origin} header whose host
 * differs from the request's {@code Host} (or that is {@code null}) marks a cross-origin write.
 * Programs (curl, OJS clients) send neither and pass: they authenticate every request.
 */
public final class CrossOrigin {

	private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

	private CrossOrigin() {
	}

	/** Whether the request is a write a browser sent from another origin. */
	public static boolean isCrossOriginWrite(HttpServletRequest request) {
		if (SAFE_METHODS.contains(request.getMethod())) {
			return false;
		}
		String site = request.getHeader("Sec-Fetch-Site");
		if (site != null) {
			return !(site.equalsIgnoreCase("same-origin") || site.equalsIgnoreCase("none"));
		}
		String origin = request.getHeader("Origin");
		if (origin == null) {
			return false;
		}
		String host = request.getHeader("Host");
		return host == null || !host.equalsIgnoreCase(authority(origin));
	}

	/** {@code host[:port]} of an origin, or a value no Host header has. */
	private static String authority(String origin) {
		try {
			@Nullable String authority = URI.create(origin.trim()).getRawAuthority();
			return (authority != null) ? authority.toLowerCase(Locale.ROOT) : "\0";
		}
		catch (IllegalArgumentException ex) {
			return "\0";
		}
	}

}

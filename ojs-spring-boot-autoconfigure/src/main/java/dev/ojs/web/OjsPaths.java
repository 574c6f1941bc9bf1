package dev.ojs.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;

/**
 * The paths of the OJS surfaces, and how a request's path is read before anything decides on
 * it. Every decision (which surface, which credential, which role) reads
 * {@link #routedPath(HttpServletRequest)}: the path Spring MVC dispatches on, percent-decoded
 * and without path parameters, never the raw request URI. {@link OjsRequestFirewall} refuses
 * requests whose raw URI spells a path under an OJS surface in any other way, so that the two
 * never differ.
 */
public final class OjsPaths {

	/** Everything the starter serves lies under this prefix, or under the dashboard's path. */
	public static final String ROOT = "/ojs";

	/** Base path of the binding's versioned endpoints (ojs-http-binding.md §3.1). */
	public static final String BASE_PATH = ROOT + "/v1";

	/** The binding's unversioned manifest (§21.1). */
	public static final String MANIFEST_PATH = ROOT + "/manifest";

	/** The Admin API. */
	public static final String ADMIN_PATH = BASE_PATH + "/admin";

	private OjsPaths() {
	}

	/**
	 * The path within the application that Spring MVC matches handlers against: each segment
	 * percent-decoded and stripped of its {@code ;parameters}, as {@link PathContainer}'s
	 * {@code valueToMatch} reads it.
	 */
	public static String routedPath(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		PathContainer path = RequestPath.parse(uri, uri.startsWith(contextPath) ? contextPath : "")
			.pathWithinApplication();
		StringBuilder routed = new StringBuilder(path.value().length());
		for (PathContainer.Element element : path.elements()) {
			routed.append((element instanceof PathContainer.PathSegment segment) ? segment.valueToMatch()
					: element.value());
		}
		return routed.toString();
	}

	/** Whether a routed path belongs to the HTTP binding (not to the Admin API). */
	public static boolean isBinding(String path) {
		return path.equals(MANIFEST_PATH) || (path.startsWith(BASE_PATH + "/") && !isAdmin(path));
	}

	/** Whether a routed path belongs to the Admin API. */
	public static boolean isAdmin(String path) {
		return isUnder(path, ADMIN_PATH);
	}

	/** Whether a path is {@code prefix} or below it. */
	public static boolean isUnder(String path, String prefix) {
		return path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
	}

	/**
	 * Whether a raw path (the request URI less the context path) is spelled canonically: no
	 * percent-encoding, no path parameters, no empty segment but a trailing one, no {@code .}
	 * or {@code ..} segment, no backslash and no control character. Such a path reads the same
	 * to every component, the servlet container, Spring MVC and Spring Security alike.
	 */
	public static boolean isCanonical(String rawPath) {
		if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
			return false;
		}
		for (int i = 0; i < rawPath.length(); i++) {
			char c = rawPath.charAt(i);
			if (c == '%' || c == ';' || c == '\\' || c < 0x21 || c == 0x7f) {
				return false;
			}
		}
		String[] segments = rawPath.substring(1).split("/", -1);
		for (int i = 0; i < segments.length; i++) {
			String segment = segments[i];
			boolean last = i == segments.length - 1;
			if ((segment.isEmpty() && !last) || segment.equals(".") || segment.equals("..")) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The path as the most lenient reader could take it: percent-decoded, path parameters and
	 * empty or {@code .} segments dropped, {@code ..} resolved, backslashes read as slashes,
	 * in lower case. It decides whether a request is aimed at an OJS surface at all, however it
	 * is spelled.
	 */
	static String lenientPath(String rawPath) {
		Deque<String> segments = new ArrayDeque<>();
		for (String segment : decode(rawPath).replace('\\', '/').split("/")) {
			int parameters = segment.indexOf(';');
			String name = (parameters >= 0) ? segment.substring(0, parameters) : segment;
			if (name.equals("..")) {
				segments.pollLast();
			}
			else if (!name.isEmpty() && !name.equals(".")) {
				segments.addLast(name);
			}
		}
		return "/" + String.join("/", segments).toLowerCase(Locale.ROOT);
	}

	/** Percent-decodes as UTF-8, twice over (a double-encoded path still reaches its target somewhere). */
	private static String decode(String raw) {
		String once = decodeOnce(raw);
		return once.equals(raw) ? once : decodeOnce(once);
	}

	private static String decodeOnce(String raw) {
		if (raw.indexOf('%') < 0) {
			return raw;
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
		for (int i = 0; i < raw.length(); i++) {
			char c = raw.charAt(i);
			int high = (c == '%' && i + 2 < raw.length()) ? Character.digit(raw.charAt(i + 1), 16) : -1;
			int low = (high >= 0) ? Character.digit(raw.charAt(i + 2), 16) : -1;
			if (low >= 0) {
				bytes.write((high << 4) | low);
				i += 2;
			}
			else {
				byte[] literal = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
				bytes.write(literal, 0, literal.length);
			}
		}
		return bytes.toString(StandardCharsets.UTF_8);
	}

}

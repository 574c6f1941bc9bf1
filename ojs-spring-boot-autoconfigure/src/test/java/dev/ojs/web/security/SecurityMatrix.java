package dev.ojs.web.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The security matrix of every OJS surface (item 9 of the security issue): the endpoints, the
 * ways to spell their paths, the principals, the origins and {@code Host} headers a request
 * can carry, and the ONE rule, {@link #expect(Mode, Cell)}, that says what each combination
 * must answer. The rule is written from the issue's access rules, not from the product's code:
 * a cell the product answers otherwise is a finding.
 */
final class SecurityMatrix {

	static final String HTTP_TOKEN = "matrix-http-token";

	static final String DASHBOARD_TOKEN = "matrix-dashboard-token";

	static final String PASSWORD = "secret";

	/** A job id no job has (a well-formed UUIDv7). */
	static final String UNKNOWN_ID = "019a0000-0000-7000-8000-00000000dead";

	static final String PRODUCER_ROLE = "OJS_PRODUCER";

	static final String WORKER_ROLE = "OJS_WORKER";

	static final String ADMIN_ROLE = "OJS_ADMIN";

	static final String VIEWER_ROLE = "OJS_VIEWER";

	private SecurityMatrix() {
	}

	/** What a surface is, read from a routed path with the issue's definitions. */
	enum Surface {

		/** {@code /ojs/v1/**} less the Admin API, and {@code /ojs/manifest}. */
		BINDING,
		/** {@code /ojs/v1/admin/**}, when the dashboard is on. */
		ADMIN_API,
		/** The dashboard's path (page, assets), less the binding's paths, when the dashboard is on. */
		DASHBOARD,
		/** The OJS actuator endpoints: the application's business, guarded for spelling and origin only. */
		ACTUATOR,
		/** Under an OJS prefix, but nothing is served there. */
		UNSERVED

	}

	/**
	 * One way of running the starter.
	 *
	 * @param name the mode's name in test names
	 * @param springSecurity whether Spring Security is in use ({@code @EnableWebSecurity})
	 * @param dashboard {@code ojs.dashboard.enabled}
	 * @param loopback whether loopback clients need no token (both surfaces' opt-ins)
	 * @param contextPath {@code server.servlet.context-path}, or empty
	 * @param dashboardPath {@code ojs.dashboard.path}
	 * @param httpToken {@code ojs.http.token}, or {@code null}
	 * @param dashboardToken {@code ojs.dashboard.token}, or {@code null}
	 */
	record Mode(String name, boolean springSecurity, boolean dashboard, boolean loopback, String contextPath,
			String dashboardPath, @Nullable String httpToken, @Nullable String dashboardToken) {

		static Mode tokens(String name, String contextPath) {
			return new Mode(name, false, true, false, contextPath, "/ojs", HTTP_TOKEN, DASHBOARD_TOKEN);
		}

		static Mode loopback(String name) {
			return new Mode(name, false, true, true, "", "/ojs", null, null);
		}

		static Mode springSecurity(String name, boolean dashboard, String contextPath, String dashboardPath) {
			return new Mode(name, true, dashboard, false, contextPath, dashboardPath, HTTP_TOKEN, null);
		}

		/** The principals of the cells that cross every other dimension (spellings, origins, hosts). */
		List<Principal> strongPrincipals() {
			if (this.springSecurity) {
				return List.of(Principal.NONE, Principal.ADMIN_CSRF);
			}
			return this.loopback ? List.of(Principal.NONE) : List.of(Principal.NONE, Principal.HTTP_TOKEN,
					Principal.DASHBOARD_TOKEN);
		}

		List<Principal> principals() {
			if (this.springSecurity) {
				return List.of(Principal.NONE, Principal.WRONG_PASSWORD, Principal.WRONG_TOKEN, Principal.PRODUCER,
						Principal.WORKER, Principal.ADMIN, Principal.VIEWER, Principal.NOBODY, Principal.HTTP_TOKEN,
						Principal.HTTP_TOKEN_LOWER, Principal.ADMIN_CSRF, Principal.VIEWER_CSRF);
			}
			if (this.loopback) {
				return List.of(Principal.NONE, Principal.WRONG_TOKEN, Principal.HTTP_TOKEN);
			}
			return List.of(Principal.NONE, Principal.WRONG_TOKEN, Principal.WRONG_PASSWORD, Principal.HTTP_TOKEN,
					Principal.HTTP_TOKEN_LOWER, Principal.DASHBOARD_TOKEN, Principal.DASHBOARD_TOKEN_LOWER);
		}

	}

	/** Who sends a request, and how. */
	enum Principal {

		NONE(null, null), WRONG_TOKEN(null, "Bearer wrong-token"), WRONG_PASSWORD(null, null),
		HTTP_TOKEN(null, "Bearer " + SecurityMatrix.HTTP_TOKEN), HTTP_TOKEN_LOWER(null, "bearer " + SecurityMatrix.HTTP_TOKEN),
		DASHBOARD_TOKEN(null, "Bearer " + SecurityMatrix.DASHBOARD_TOKEN),
		DASHBOARD_TOKEN_LOWER(null, "bearer " + SecurityMatrix.DASHBOARD_TOKEN), PRODUCER(PRODUCER_ROLE, null),
		WORKER(WORKER_ROLE, null), ADMIN(ADMIN_ROLE, null), VIEWER(VIEWER_ROLE, null), NOBODY("OTHER", null),
		/** The admin user with its HTTP session cookie and the CSRF token kept in it. */
		ADMIN_CSRF(ADMIN_ROLE, null),
		/** The viewer user with its HTTP session cookie and the CSRF token kept in it. */
		VIEWER_CSRF(VIEWER_ROLE, null);

		/** The role of an HTTP Basic user (password {@value SecurityMatrix#PASSWORD}), or {@code null}. */
		final @Nullable String role;

		/** A bearer {@code Authorization} header, or {@code null}. */
		final @Nullable String bearer;

		Principal(@Nullable String role, @Nullable String bearer) {
			this.role = role;
			this.bearer = bearer;
		}

		/** The Basic user's name. */
		String user() {
			return switch (this) {
				case ADMIN_CSRF, WRONG_PASSWORD -> "admin";
				case VIEWER_CSRF -> "viewer";
				default -> name().toLowerCase(Locale.ROOT);
			};
		}

		boolean anonymous() {
			return this == NONE || this == WRONG_TOKEN || this == WRONG_PASSWORD;
		}

		boolean csrf() {
			return this == ADMIN_CSRF || this == VIEWER_CSRF;
		}

		boolean sendsAuthorization() {
			return this != NONE;
		}

		String label() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

	/** Where a browser says a request comes from ({@code Sec-Fetch-Site}, {@code Origin}). */
	enum Origin {

		NONE(null, null, false), SAME_ORIGIN("same-origin", "self", false), USER_NAVIGATION("none", null, false),
		SAME_SITE("same-site", "http://other.localhost", true), CROSS_SITE("cross-site", "http://evil.example", true),
		NULL(null, "null", true), FOREIGN_ORIGIN(null, "http://evil.example", true);

		final @Nullable String secFetchSite;

		/** The {@code Origin} header; {@code self} stands for the request's own origin. */
		final @Nullable String origin;

		/** Whether a write with these headers is a browser's cross-origin write. */
		final boolean crossOrigin;

		Origin(@Nullable String secFetchSite, @Nullable String origin, boolean crossOrigin) {
			this.secFetchSite = secFetchSite;
			this.origin = origin;
			this.crossOrigin = crossOrigin;
		}

		String label() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

	/** The request's {@code Host} header. */
	enum Host {

		OWN("127.0.0.1", true), LOCALHOST("localhost", true), FOREIGN("evil.example", false);

		final String name;

		/** Whether the name is this application's (an IP literal, {@code localhost}): DNS rebinding sends a foreign one. */
		final boolean own;

		Host(String name, boolean own) {
			this.name = name;
			this.own = own;
		}

		String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/** A way to spell a path: canonical, or one of the spellings the issue lists. */
	record Spelling(Kind kind, int segment) {

		enum Kind {

			CANONICAL, PERCENT_ENCODED, PATH_PARAMETER, DOT_DOT_SIBLING, DOT_DOT_PREFIX, DOUBLE_SLASH, TRAILING_SLASH,
			UPPER_CASE

		}

		static final Spelling CANONICAL = new Spelling(Kind.CANONICAL, -1);

		/** Every spelling of a path: percent-encoding, {@code ;x=1} and case in each segment that has letters. */
		static List<Spelling> of(String path) {
			List<String> segments = segments(path);
			List<Spelling> spellings = new ArrayList<>();
			for (int i = 0; i < segments.size(); i++) {
				if (!segments.get(i).isEmpty()) {
					spellings.add(new Spelling(Kind.PERCENT_ENCODED, i));
					spellings.add(new Spelling(Kind.PATH_PARAMETER, i));
				}
			}
			spellings.add(new Spelling(Kind.DOT_DOT_SIBLING, -1));
			spellings.add(new Spelling(Kind.DOT_DOT_PREFIX, -1));
			spellings.add(new Spelling(Kind.DOUBLE_SLASH, -1));
			if (!path.endsWith("/")) {
				spellings.add(new Spelling(Kind.TRAILING_SLASH, -1));
			}
			for (int i = 0; i < Math.min(2, segments.size()); i++) {
				if (!segments.get(i).equals(segments.get(i).toUpperCase(Locale.ROOT))) {
					spellings.add(new Spelling(Kind.UPPER_CASE, i));
				}
			}
			return spellings;
		}

		/** Whether the path reads the same to every component: canonical, or with a trailing slash (which routes nowhere). */
		boolean canonical() {
			return this.kind == Kind.CANONICAL || this.kind == Kind.TRAILING_SLASH;
		}

		/** The spelled path. */
		String apply(String path) {
			List<String> segments = new ArrayList<>(segments(path));
			switch (this.kind) {
				case CANONICAL -> {
				}
				case PERCENT_ENCODED -> {
					String segment = segments.get(this.segment);
					segments.set(this.segment, String.format("%%%02X", (int) segment.charAt(0)) + segment.substring(1));
				}
				case PATH_PARAMETER -> segments.set(this.segment, segments.get(this.segment) + ";x=1");
				case DOT_DOT_SIBLING -> {
					int last = segments.size() - 1;
					while (segments.get(last).isEmpty()) {
						last--;
					}
					String sibling = path.contains("/queues") ? "jobs" : "queues";
					segments.add(last, "..");
					segments.add(last, sibling);
				}
				case DOT_DOT_PREFIX -> {
					segments.add(0, "..");
					segments.add(0, "x");
				}
				case DOUBLE_SLASH -> segments.add(1, "");
				case TRAILING_SLASH -> segments.add("");
				case UPPER_CASE -> segments.set(this.segment, segments.get(this.segment).toUpperCase(Locale.ROOT));
			}
			return "/" + String.join("/", segments);
		}

		/** The path's segments: {@code /ojs/} is {@code [ojs, ""]}. */
		private static List<String> segments(String path) {
			return List.of(path.substring(1).split("/", -1));
		}

	}

	/**
	 * An endpoint.
	 *
	 * @param method the HTTP method
	 * @param path the path within the application
	 * @param body the request body ({@code application/json}), or {@code null}
	 * @param handled what its handler answers to a request let through (for the fixtures the suite sets up)
	 */
	record Endpoint(String method, String path, @Nullable String body, Answer handled) {

		private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

		boolean write() {
			return !SAFE.contains(this.method);
		}

	}

	/** A status and the binding's error code ({@code null}: any body, as for 2xx answers). */
	record Answer(int status, @Nullable String code) {

		static Answer of(int status) {
			return new Answer(status, null);
		}

		static Answer error(int status, String code) {
			return new Answer(status, code);
		}

		boolean success() {
			return this.status >= 200 && this.status < 300;
		}

		@Override
		public String toString() {
			return (this.code != null) ? this.status + " " + this.code : String.valueOf(this.status);
		}

	}

	/** One request of the matrix. */
	record Cell(Endpoint endpoint, Spelling spelling, Principal principal, Origin origin, Host host) {

		String path() {
			return this.spelling.apply(this.endpoint.path());
		}

	}

	static final Answer BAD_SPELLING = Answer.error(400, "invalid_request");

	static final Answer UNAUTHORIZED = Answer.error(401, "unauthorized");

	static final Answer FORBIDDEN = Answer.error(403, "forbidden");

	static final Answer NOT_FOUND = Answer.error(404, "not_found");

	/**
	 * THE rule: what a cell must answer, from the issue's rules, in the order the product must
	 * apply them.
	 */
	static Answer expect(Mode mode, Cell cell) {
		Endpoint endpoint = cell.endpoint();
		// 1. OjsRequestGuard, first in every mode: a path under an OJS surface has one spelling
		// (no %xx, no ;params, no . or .., no //, no other case of its prefix); others are 400.
		if (!cell.spelling().canonical() && !unservedCase(mode, cell)) {
			return BAD_SPELLING;
		}
		// 2. OjsRequestGuard: a write a browser sends from another origin is 403, whatever its credential.
		if (endpoint.write() && cell.origin().crossOrigin) {
			return FORBIDDEN;
		}
		String routed = cell.path();
		Surface surface = surface(mode, routed);
		// 3. access to the surface the routed path belongs to
		Answer refusal = mode.springSecurity() ? springSecurity(surface, endpoint, routed, cell.principal())
				: withoutSpringSecurity(mode, surface, cell);
		if (refusal != null) {
			return refusal;
		}
		// 4. routing: nothing is served there; a trailing slash is not routed to a handler
		if (surface == Surface.UNSERVED || cell.spelling().kind() == Spelling.Kind.TRAILING_SLASH) {
			return (surface == Surface.ACTUATOR) ? Answer.of(404) : NOT_FOUND;
		}
		return endpoint.handled();
	}

	/**
	 * Another case of a segment below {@code /ojs} where nothing is served (the dashboard's
	 * assets with the dashboard off): the guard checks the case of the surfaces that are on,
	 * and this path routes nowhere.
	 */
	private static boolean unservedCase(Mode mode, Cell cell) {
		return cell.spelling().kind() == Spelling.Kind.UPPER_CASE && cell.spelling().segment() >= 1
				&& !mode.dashboard() && cell.endpoint().path().startsWith(mode.dashboardPath() + "/assets");
	}

	/** Which surface a routed path belongs to (the issue's definitions). */
	static Surface surface(Mode mode, String routed) {
		if (isUnder(routed, "/ojs/v1/admin")) {
			return mode.dashboard() ? Surface.ADMIN_API : Surface.UNSERVED;
		}
		if (routed.equals("/ojs/manifest") || routed.startsWith("/ojs/v1/")) {
			return Surface.BINDING;
		}
		if (mode.dashboard() && isUnder(routed, mode.dashboardPath())) {
			return Surface.DASHBOARD;
		}
		if (isUnder(routed, "/actuator/ojs") || isUnder(routed, "/actuator/deadletters")) {
			return Surface.ACTUATOR;
		}
		return Surface.UNSERVED;
	}

	/**
	 * Without Spring Security (OjsAccessFilter): the binding needs {@code ojs.http.token}, the
	 * Admin API {@code ojs.dashboard.token} (else {@code ojs.http.token}); 401 otherwise. With
	 * the loopback opt-in, a loopback client passes if its Host is its own, else 403 (DNS
	 * rebinding). The dashboard page and assets hold no data: open.
	 */
	private static @Nullable Answer withoutSpringSecurity(Mode mode, Surface surface, Cell cell) {
		String token = switch (surface) {
			case BINDING -> mode.httpToken();
			case ADMIN_API -> (mode.dashboardToken() != null) ? mode.dashboardToken() : mode.httpToken();
			default -> null;
		};
		if (surface != Surface.BINDING && surface != Surface.ADMIN_API) {
			return null;
		}
		Principal principal = cell.principal();
		if (token != null && principal.bearer != null && principal.bearer.substring(7).equals(token)) {
			return null;
		}
		if (mode.loopback()) {
			return cell.host().own ? null : FORBIDDEN;
		}
		return UNAUTHORIZED;
	}

	/**
	 * With Spring Security: the binding's chain (HTTP Basic, {@code ojs.http.token} as the
	 * admin role; health and manifest any role, jobs producer or admin, workers worker or admin,
	 * the rest admin) and the Admin API and dashboard chain (reads viewer or admin; writes
	 * admin, and a CSRF token whenever the request carries a credential, an Authorization
	 * header or a session; an anonymous write is 401).
	 */
	private static @Nullable Answer springSecurity(Surface surface, Endpoint endpoint, String routed,
			Principal principal) {
		switch (surface) {
			case BINDING -> {
				String role = (principal == Principal.HTTP_TOKEN || principal == Principal.HTTP_TOKEN_LOWER) ? ADMIN_ROLE
						: principal.role;
				if (role == null) {
					return UNAUTHORIZED;
				}
				Set<String> allowed;
				if (endpoint.method().equals("GET") && (routed.equals("/ojs/v1/health") || routed.equals("/ojs/manifest"))) {
					allowed = Set.of(PRODUCER_ROLE, WORKER_ROLE, ADMIN_ROLE);
				}
				else if (isUnder(routed, "/ojs/v1/jobs")) {
					allowed = Set.of(PRODUCER_ROLE, ADMIN_ROLE);
				}
				else if (isUnder(routed, "/ojs/v1/workers")) {
					allowed = Set.of(WORKER_ROLE, ADMIN_ROLE);
				}
				else {
					allowed = Set.of(ADMIN_ROLE);
				}
				return allowed.contains(role) ? null : FORBIDDEN;
			}
			case ADMIN_API, DASHBOARD -> {
				if (!endpoint.write()) {
					if (principal.role == null) {
						return UNAUTHORIZED;
					}
					return Set.of(VIEWER_ROLE, ADMIN_ROLE).contains(principal.role) ? null : FORBIDDEN;
				}
				if (!principal.sendsAuthorization()) {
					return UNAUTHORIZED;
				}
				if (!principal.csrf()) {
					return FORBIDDEN;
				}
				return ADMIN_ROLE.equals(principal.role) ? null : FORBIDDEN;
			}
			default -> {
				return null;
			}
		}
	}

	static boolean isUnder(String path, String prefix) {
		return path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
	}

	/** The endpoints of a mode; {@code {n}} in a path or body is replaced by a number unique to each cell. */
	static List<Endpoint> endpoints(Mode mode, String jobId, String cancelledJobId) {
		String job = "{\"type\":\"matrix.job\",\"args\":[],\"options\":{\"queue\":\"matrix\"}}";
		List<Endpoint> endpoints = new ArrayList<>(List.of(
				// the HTTP binding
				new Endpoint("GET", "/ojs/v1/health", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/manifest", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/jobs", job, Answer.of(201)),
				new Endpoint("GET", "/ojs/v1/jobs/" + jobId, null, Answer.of(200)),
				// cancelling a cancelled job: the handler looked it up
				new Endpoint("DELETE", "/ojs/v1/jobs/" + cancelledJobId, null, Answer.error(409, "conflict")),
				new Endpoint("POST", "/ojs/v1/jobs/batch", "{\"jobs\":[" + job + "]}", Answer.of(201)),
				new Endpoint("POST", "/ojs/v1/workers/fetch", "{\"queues\":[\"matrix-empty\"]}", Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/workers/ack", "{\"job_id\":\"" + UNKNOWN_ID + "\"}", NOT_FOUND),
				new Endpoint("POST", "/ojs/v1/workers/nack",
						"{\"job_id\":\"" + UNKNOWN_ID + "\",\"error\":{\"message\":\"matrix\"}}", NOT_FOUND),
				new Endpoint("POST", "/ojs/v1/workers/heartbeat", "{\"worker_id\":\"matrix-worker\"}", Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/queues", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/queues/q{n}/pause", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/queues/q{n}/resume", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/dead-letter", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/dead-letter/" + UNKNOWN_ID + "/retry", null, NOT_FOUND),
				new Endpoint("DELETE", "/ojs/v1/dead-letter/" + UNKNOWN_ID, null, NOT_FOUND),
				new Endpoint("GET", "/ojs/v1/cron", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/cron",
						"{\"name\":\"matrix-{n}\",\"cron\":\"0 0 1 1 *\",\"type\":\"it.ok\",\"args\":[]}", Answer.of(201)),
				new Endpoint("DELETE", "/ojs/v1/cron/unknown-{n}", null, NOT_FOUND),
				new Endpoint("GET", "/ojs/v1/events", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/workflows", "{\"type\":\"group\",\"jobs\":[" + job + "]}", Answer.of(201)),
				new Endpoint("GET", "/ojs/v1/workflows/" + UNKNOWN_ID, null, NOT_FOUND),
				new Endpoint("DELETE", "/ojs/v1/workflows/" + UNKNOWN_ID, null, NOT_FOUND),
				// the Admin API: a read and a write per controller
				new Endpoint("GET", "/ojs/v1/admin/jobs", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/jobs/" + jobId, null, Answer.of(200)),
				// without confirm: a preview
				new Endpoint("POST", "/ojs/v1/admin/jobs/bulk/cancel", "{\"filter\":{\"queue\":\"matrix-none\",\"state\":\"available\"}}",
						Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/queues", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/admin/queues/a{n}/pause", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/limits", null, Answer.of(200)),
				new Endpoint("PUT", "/ojs/v1/admin/limits/types/matrix.t{n}", "{\"concurrency_per_key\":null}",
						Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/dead-letter/groups", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/admin/dead-letter/" + UNKNOWN_ID + "/retry", null, NOT_FOUND),
				new Endpoint("GET", "/ojs/v1/admin/system/config", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/schedules", null, Answer.of(200)),
				new Endpoint("POST", "/ojs/v1/admin/schedules/unknown-{n}/pause", null, NOT_FOUND),
				new Endpoint("GET", "/ojs/v1/admin/workflows", null, Answer.of(200)),
				new Endpoint("GET", "/ojs/v1/admin/workflows/" + UNKNOWN_ID, null, NOT_FOUND),
				new Endpoint("POST", "/ojs/v1/admin/workflows/" + UNKNOWN_ID + "/cancel", null, NOT_FOUND),
				// the dashboard page and an asset
				new Endpoint("GET", mode.dashboardPath() + "/", null, Answer.of(200)),
				new Endpoint("GET", mode.dashboardPath() + "/assets/dashboard.js", null, Answer.of(200)),
				// the OJS actuator endpoints (read-only by default: a write is 405)
				new Endpoint("GET", "/actuator/ojs", null, Answer.of(200)),
				new Endpoint("GET", "/actuator/deadletters", null, Answer.of(200)),
				new Endpoint("POST", "/actuator/deadletters", "{\"confirm\":true}", Answer.of(405))));
		if (!mode.dashboardPath().equals("/ojs")) {
			// where the dashboard is not
			endpoints.add(new Endpoint("GET", "/ojs/", null, NOT_FOUND));
		}
		return endpoints;
	}

}

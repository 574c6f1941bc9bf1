package dev.ojs.web.security;

import org.jspecify.annotations.Nullable;

import dev.ojs.web.security.SecurityMatrix.Answer;
import dev.ojs.web.security.SecurityMatrix.Cell;
import dev.ojs.web.security.SecurityMatrix.Mode;
import dev.ojs.web.security.SecurityMatrix.Spelling;

/**
 * Where the product answers otherwise than {@link SecurityMatrix#expect} says, known and
 * reported, not yet fixed: the cell's remaining checks are skipped (as {@code @Disabled} would)
 * with this reason, so that the matrix stays green for everything else and fails on any new
 * difference. Delete an entry once the product is fixed.
 */
final class KnownMismatches {

	private KnownMismatches() {
	}

	/**
	 * A 404 for a path under an OJS surface that routes to no handler (a trailing slash,
	 * {@code /ojs/v1/JOBS}) is Spring Boot's error body ({@code timestamp, status, error, path})
	 * rather than the binding's error body: Spring MVC's {@code NoResourceFoundException} is
	 * raised by the resource handler, outside the packages {@code ApiExceptionHandler} advises.
	 * The status is right and nothing is disclosed.
	 */
	static @Nullable String body(Answer expected, RawHttp.Response response) {
		if (expected.status() == 404 && response.status() == 404 && response.errorCode() == null
				&& response.json().path("error").isString() && response.json().has("timestamp")) {
			return "known mismatch: a 404 of an unrouted OJS path has Spring Boot's error body, not the binding's";
		}
		return null;
	}

	/** Differences of a whole cell, after its status was checked. */
	static @Nullable String of(Mode mode, Cell cell, RawHttp.Response response) {
		// With Spring Security, a write to the Admin API that carries a credential that does not
		// authenticate (a wrong password, a bearer token the chain does not know) and no CSRF
		// token is refused with 403, as the rule says, but CsrfFilter's HttpSessionCsrfTokenRepository
		// saves a fresh token for it first: a session is created for an anonymous request.
		if (mode.springSecurity() && cell.principal().anonymous() && cell.endpoint().write()
				&& cell.path().startsWith("/ojs/v1/admin") && response.status() == 403
				&& response.headers("Set-Cookie").stream().anyMatch((cookie) -> cookie.startsWith("JSESSIONID="))) {
			return "known mismatch: a credentialed anonymous write to the Admin API creates a session (CSRF token saved)";
		}
		return null;
	}

	/**
	 * With the dashboard off, {@code /ojs/ASSETS/dashboard.js} (another case of the dashboard's
	 * assets path, where nothing is served) is 404, not 400: the guard checks the case of the
	 * dashboard's sub-paths only when the dashboard is on.
	 */
	static boolean caseOfAnUnservedDashboardPath(Mode mode, Cell cell) {
		return !mode.dashboard() && cell.spelling().kind() == Spelling.Kind.UPPER_CASE
				&& cell.endpoint().path().startsWith(mode.dashboardPath() + "/assets");
	}

}

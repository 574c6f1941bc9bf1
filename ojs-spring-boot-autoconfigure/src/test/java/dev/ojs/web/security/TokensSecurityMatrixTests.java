package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix without Spring Security (mode 1): the binding needs {@code ojs.http.token},
 * the Admin API {@code ojs.dashboard.token} (either bearer scheme case); the dashboard page and
 * assets are open; every path is spelled canonically and no browser writes cross-origin; the
 * {@code Host} header does not matter to a token.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN, "ojs.dashboard.token=" + SecurityMatrix.DASHBOARD_TOKEN })
class TokensSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.tokens("tokens", "");
	}

}

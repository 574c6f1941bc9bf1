package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix of mode 1 under a servlet context path ({@code /app}, mode 4): every rule
 * reads the path within the application.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN, "ojs.dashboard.token=" + SecurityMatrix.DASHBOARD_TOKEN, "server.servlet.context-path=/app" })
class TokensContextPathSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.tokens("tokens+context-path", "/app");
	}

}

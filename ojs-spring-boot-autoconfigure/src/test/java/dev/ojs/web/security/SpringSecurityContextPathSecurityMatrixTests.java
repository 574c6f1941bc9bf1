package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix of mode 2 under a servlet context path ({@code /app}, mode 4): every rule
 * reads the path within the application.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, MatrixUsers.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN, "server.servlet.context-path=/app" })
class SpringSecurityContextPathSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.springSecurity("security+dashboard+context-path", true, "/app", "/ojs");
	}

}

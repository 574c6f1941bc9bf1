package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix with Spring Security and the dashboard off (mode 3): the binding's roles
 * as in mode 2; the Admin API and the dashboard are not served (404 for everyone), and the
 * request guard still refuses other spellings and cross-origin writes under {@code /ojs}.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, MatrixUsers.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN, "ojs.dashboard.enabled=false" })
class SpringSecurityNoDashboardSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.springSecurity("security", false, "", "/ojs");
	}

}

package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix with Spring Security and the dashboard on (mode 2): the binding's roles
 * (HTTP Basic, or {@code ojs.http.token} as the admin role), the Admin API's and dashboard's
 * viewer and admin roles with CSRF tokens on credentialed writes, no session for anonymous
 * requests.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, MatrixUsers.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN })
class SpringSecurityDashboardSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.springSecurity("security+dashboard", true, "", "/ojs");
	}

}

package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix of mode 2 with the dashboard at {@code /ops/jobs} (mode 5): the page and
 * its assets there take the dashboard's rules and its spelling rules; nothing is served at
 * {@code /ojs/}; the Admin API stays at {@code /ojs/v1/admin}.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class, MatrixUsers.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.token=" + SecurityMatrix.HTTP_TOKEN, "ojs.dashboard.path=/ops/jobs" })
class CustomDashboardPathSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.springSecurity("security+dashboard-path", true, "", "/ops/jobs");
	}

}

package dev.ojs.web.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.web.security.SecurityMatrix.Mode;

/**
 * The security matrix without Spring Security and without tokens, loopback clients let in
 * ({@code ojs.http.allow-unauthenticated-loopback}, {@code ojs.dashboard.allow-unauthenticated-loopback}):
 * a request whose {@code Host} is not this application's (DNS rebinding) is 403 whatever it
 * carries; the spelling and cross-origin rules hold as in every mode.
 */
@SpringBootTest(classes = { IntegrationTestApplication.class }, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false",
				"management.endpoints.web.exposure.include=ojs,deadletters", "ojs.http.allow-unauthenticated-loopback=true", "ojs.dashboard.allow-unauthenticated-loopback=true" })
class LoopbackSecurityMatrixTests extends AbstractSecurityMatrixTests {

	@Override
	Mode mode() {
		return Mode.loopback("loopback");
	}

}

package dev.ojs.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** How a request's path is read: routed as Spring MVC does, canonical or not, and leniently. */
class OjsPathsTests {

	@Test
	void theRoutedPathIsDecodedWithoutPathParameters() {
		assertThat(routed("", "/%6Fjs/v1/jobs")).isEqualTo("/ojs/v1/jobs");
		assertThat(routed("", "/ojs;x=1/v1/jobs")).isEqualTo("/ojs/v1/jobs");
		assertThat(routed("", "/ojs/%761/jobs;jsessionid=1")).isEqualTo("/ojs/v1/jobs");
		assertThat(routed("/app", "/app/ojs/v1/jobs")).isEqualTo("/ojs/v1/jobs");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/ojs/v1/jobs", "/ojs/", "/ojs/v1/jobs/0194f3c0-0000-7000-8000-000000000000",
			"/ojs/v1/queues/billing_eu.v2-x/pause", "/ojs/assets/dashboard.js" })
	void canonicalPaths(String path) {
		assertThat(OjsPaths.isCanonical(path)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/%6Fjs/v1/jobs", "/ojs;x=1/v1/jobs", "/ojs/v1/queues/../jobs", "/ojs//v1/jobs",
			"/ojs/./v1/jobs", "/ojs/v1/..", "/ojs\\v1/jobs", "ojs/v1", "", "/ojs/v1/jobs/a b", "/ojs/v1/%2e%2e/x" })
	void nonCanonicalPaths(String path) {
		assertThat(OjsPaths.isCanonical(path)).isFalse();
	}

	@Test
	void theLenientPathFindsTheTargetOfAnySpelling() {
		assertThat(OjsPaths.lenientPath("/%6Fjs/v1/jobs")).isEqualTo("/ojs/v1/jobs");
		assertThat(OjsPaths.lenientPath("/OJS;a=b/V1//jobs/")).isEqualTo("/ojs/v1/jobs");
		assertThat(OjsPaths.lenientPath("/x/../ojs/./v1")).isEqualTo("/ojs/v1");
		assertThat(OjsPaths.lenientPath("/%256Fjs/v1")).isEqualTo("/ojs/v1");
		assertThat(OjsPaths.lenientPath("/ojs%2Fv1\\jobs")).isEqualTo("/ojs/v1/jobs");
		assertThat(OjsPaths.lenientPath("/%E2%82%AC")).isEqualTo("/€");
		assertThat(OjsPaths.lenientPath("/%zz")).isEqualTo("/%zz");
	}

	@Test
	void surfaces() {
		assertThat(OjsPaths.isBinding("/ojs/v1/jobs")).isTrue();
		assertThat(OjsPaths.isBinding("/ojs/manifest")).isTrue();
		assertThat(OjsPaths.isBinding("/ojs/v1/admin/jobs")).isFalse();
		assertThat(OjsPaths.isBinding("/ojs/v1admin")).isFalse();
		assertThat(OjsPaths.isAdmin("/ojs/v1/admin")).isTrue();
		assertThat(OjsPaths.isAdmin("/ojs/v1/admin/queues")).isTrue();
		assertThat(OjsPaths.isAdmin("/ojs/v1/administrator")).isFalse();
		assertThat(OjsPaths.isUnder("/ojs-status", "/ojs")).isFalse();
		assertThat(OjsPaths.isUnder("/ojs/", "/ojs")).isTrue();
	}

	private static String routed(String contextPath, String uri) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		return OjsPaths.routedPath(request);
	}

}

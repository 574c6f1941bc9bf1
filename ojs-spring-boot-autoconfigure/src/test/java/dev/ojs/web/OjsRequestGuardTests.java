package dev.ojs.web;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The first filter: non-canonical spellings of an OJS path, and cross-origin writes, go no further. */
class OjsRequestGuardTests {

	private static final JsonMapper JSON = new JsonMapper();

	private final OjsRequestGuard guard = new OjsRequestGuard(List.of("/ojs", "/ops/jobs", "/actuator/deadletters"),
			JSON);

	@ParameterizedTest
	@ValueSource(strings = { "/%6Fjs/v1/jobs", "/ojs;x=1/v1/jobs", "/ojs/%761/jobs", "/ojs/v1/%6Aobs",
			"/ojs/v1;a=b/workers/fetch", "/ojs/v1/queues/../jobs", "/x/../ojs/v1/jobs", "/ojs//v1/jobs", "/OJS/v1/jobs",
			"/Ojs/v1/admin/queues", "/ops/%6Aobs/", "/OPS/jobs/", "/actuator/deadletters;x=1",
			"/actuator/%64eadletters", "/%256Fjs/v1/jobs", "/ojs%2Fv1/jobs" })
	void refusesNonCanonicalSpellings(String uri) throws Exception {
		MockHttpServletResponse response = call("POST", uri, null);
		assertThat(response.getStatus()).as(uri).isEqualTo(400);
		JsonNode error = JSON.readTree(response.getContentAsString()).path("error");
		assertThat(error.path("code").stringValue()).isEqualTo("invalid_request");
		assertThat(error.path("request_id").stringValue()).isEqualTo(response.getHeader("X-Request-Id"));
		assertThat(response.getContentType()).startsWith("application/openjobspec+json");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/ojs/v1/jobs", "/ojs/", "/ojs/v1/jobs/", "/ops/jobs/", "/actuator/deadletters/x",
			"/app/%6Fjs", "/ojs-status;x=1", "/actuator/health;x=1", "/" })
	void passesCanonicalAndForeignPaths(String uri) throws Exception {
		assertThat(call("POST", uri, null).getStatus()).as(uri).isEqualTo(200);
	}

	@Test
	void refusesCrossOriginWritesToOjsPathsOnly() throws Exception {
		assertThat(call("POST", "/ojs/v1/jobs", "cross-site").getStatus()).isEqualTo(403);
		assertThat(call("DELETE", "/ops/jobs/x", "same-site").getStatus()).isEqualTo(403);
		assertThat(call("POST", "/actuator/deadletters/x", "cross-site").getStatus()).isEqualTo(403);
		assertThat(call("GET", "/ojs/v1/jobs", "cross-site").getStatus()).isEqualTo(200);
		assertThat(call("POST", "/ojs/v1/jobs", "same-origin").getStatus()).isEqualTo(200);
		assertThat(call("POST", "/checkout", "cross-site").getStatus()).isEqualTo(200);
	}

	@Test
	void readsThePathWithinTheContextPath() throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/app/%6Fjs/v1/jobs");
		request.setContextPath("/app");
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.guard.doFilter(request, response, new MockFilterChain());
		assertThat(response.getStatus()).isEqualTo(400);
	}

	private MockHttpServletResponse call(String method, String uri, String site) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
		request.addHeader("Host", "localhost:8080");
		if (site != null) {
			request.addHeader("Sec-Fetch-Site", site);
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.guard.doFilter(request, response, new MockFilterChain());
		return response;
	}

}

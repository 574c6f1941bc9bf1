package dev.ojs.web.http;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The bearer token rule without Spring Security ({@code ojs.http.token}, {@code ojs.http.allow-unauthenticated-loopback}). */
class OjsHttpTokenFilterTests {

	private static final JsonMapper JSON = new JsonMapper();

	private static MockHttpServletResponse call(OjsHttpTokenFilter filter, String path, String remote,
			String authorization) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
		request.setRemoteAddr(remote);
		if (authorization != null) {
			request.addHeader("Authorization", authorization);
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, new MockFilterChain());
		return response;
	}

	@Test
	void requiresTheTokenFromEveryClient() throws Exception {
		OjsHttpTokenFilter filter = new OjsHttpTokenFilter("s3cret", false, JSON);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer s3cret").getStatus()).isEqualTo(200);
		MockHttpServletResponse refused = call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer s3cre");
		assertThat(refused.getStatus()).isEqualTo(401);
		assertThat(refused.getHeader("WWW-Authenticate")).isEqualTo("Bearer");
		assertThat(JSON.readTree(refused.getContentAsString()).path("error").path("code").stringValue())
			.isEqualTo("unauthorized");
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/manifest", "10.0.0.1", "Basic czNjcmV0").getStatus()).isEqualTo(401);
	}

	@Test
	void loopbackClientsWhenAllowed() throws Exception {
		OjsHttpTokenFilter filter = new OjsHttpTokenFilter(null, true, JSON);
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "0:0:0:0:0:0:0:1", null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "192.168.1.5", null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer anything").getStatus()).isEqualTo(401);
	}

	@Test
	void onlyTheBindingsPaths() throws Exception {
		OjsHttpTokenFilter filter = new OjsHttpTokenFilter("s3cret", false, JSON);
		assertThat(call(filter, "/ojs/v1/admin/queues", "10.0.0.1", null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/actuator/health", "10.0.0.1", null).getStatus()).isEqualTo(200);
	}

	@Test
	void neitherTokenNorLoopbackFailsAtStartUp() {
		assertThatIllegalStateException().isThrownBy(() -> new OjsHttpTokenFilter(" ", false, JSON))
			.withMessageContaining("ojs.http.token")
			.withMessageContaining("ojs.http.allow-unauthenticated-loopback");
	}

}

package dev.ojs.web;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Access to a surface without Spring Security: its bearer token (scheme in any case), or
 * loopback clients that name this application in their Host, when allowed.
 */
class OjsAccessFilterTests {

	private static final JsonMapper JSON = new JsonMapper();

	private static final OwnHosts HOSTS = new OwnHosts(List.of("jobs.internal"));

	@Test
	void requiresTheTokenFromEveryClient() throws Exception {
		OjsAccessFilter filter = binding(BearerToken.of("s3cret"), false);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer s3cret", null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "bearer s3cret", null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "BEARER  s3cret ", null).getStatus()).isEqualTo(200);
		MockHttpServletResponse refused = call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer s3cre", null);
		assertThat(refused.getStatus()).isEqualTo(401);
		assertThat(refused.getHeader("WWW-Authenticate")).isEqualTo("Bearer realm=\"OJS\"");
		assertThat(JSON.readTree(refused.getContentAsString()).path("error").path("code").stringValue())
			.isEqualTo("unauthorized");
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null, "localhost").getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/manifest", "10.0.0.1", "Basic czNjcmV0", null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearers3cret", null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer ", null).getStatus()).isEqualTo(401);
	}

	@Test
	void decidesOnTheRoutedPath() throws Exception {
		OjsAccessFilter filter = binding(BearerToken.of("s3cret"), false);
		assertThat(call(filter, "/%6Fjs/v1/jobs", "10.0.0.1", null, null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs;x=1/v1/workers/fetch", "10.0.0.1", null, null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/%761/jobs", "10.0.0.1", null, null).getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/v1/admin/queues", "10.0.0.1", null, null).getStatus()).isEqualTo(200);
		assertThat(call(filter, "/actuator/health", "10.0.0.1", null, null).getStatus()).isEqualTo(200);
	}

	@Test
	void loopbackClientsWhenAllowedAndNamingThisApplication() throws Exception {
		OjsAccessFilter filter = binding(null, true);
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null, "localhost:8080").getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "0:0:0:0:0:0:0:1", null, "[::1]:8080").getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null, "127.0.0.1:8080").getStatus()).isEqualTo(200);
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null, "jobs.internal").getStatus()).isEqualTo(200);
		// DNS rebinding: a page whose name now resolves to this machine sends its own name
		MockHttpServletResponse rebound = call(filter, "/ojs/v1/health", "127.0.0.1", null, "evil.example:8080");
		assertThat(rebound.getStatus()).isEqualTo(403);
		assertThat(call(filter, "/ojs/v1/health", "127.0.0.1", null, null).getStatus()).isEqualTo(403);
		assertThat(call(filter, "/ojs/v1/health", "192.168.1.5", null, "localhost").getStatus()).isEqualTo(401);
		assertThat(call(filter, "/ojs/v1/health", "10.0.0.1", "Bearer anything", "localhost").getStatus())
			.isEqualTo(401);
	}

	@Test
	void aSurfaceWithoutTokenMustAllowLoopback() {
		assertThatIllegalArgumentException().isThrownBy(() -> binding(BearerToken.of(" "), false));
	}

	@Test
	void ownHosts() {
		assertThat(HOSTS.isOwn("localhost")).isTrue();
		assertThat(HOSTS.isOwn("LOCALHOST:80")).isTrue();
		assertThat(HOSTS.isOwn("10.1.2.3:8080")).isTrue();
		assertThat(HOSTS.isOwn("[fe80::1]:8080")).isTrue();
		assertThat(HOSTS.isOwn("Jobs.Internal:443")).isTrue();
		assertThat(HOSTS.isOwn("localhost.evil.example")).isFalse();
		assertThat(HOSTS.isOwn("1.2.3.4.evil.example")).isFalse();
		assertThat(HOSTS.isOwn("[::1]evil")).isFalse();
		assertThat(HOSTS.isOwn("")).isFalse();
		assertThat(OwnHosts.isLoopback("127.0.0.1")).isTrue();
		assertThat(OwnHosts.isLoopback("::1")).isTrue();
		assertThat(OwnHosts.isLoopback("localhost")).isFalse();
		assertThat(OwnHosts.isLoopback("10.0.0.1")).isFalse();
	}

	private static OjsAccessFilter binding(BearerToken token, boolean loopback) {
		return new OjsAccessFilter(OjsPaths::isBinding, token, loopback, HOSTS, JSON);
	}

	private static MockHttpServletResponse call(OjsAccessFilter filter, String uri, String remote,
			String authorization, String host) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setRemoteAddr(remote);
		if (authorization != null) {
			request.addHeader("Authorization", authorization);
		}
		if (host != null) {
			request.addHeader("Host", host);
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, new MockFilterChain());
		return response;
	}

}

package dev.ojs.web;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** Which writes count as sent by a browser from another origin. */
class CrossOriginTests {

	@Test
	void readsAreNeverCrossOriginWrites() {
		assertThat(CrossOrigin.isCrossOriginWrite(request("GET", "cross-site", "http://evil.example"))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("HEAD", "cross-site", null))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("OPTIONS", "cross-site", null))).isFalse();
	}

	@Test
	void fetchMetadataIsBelievedWhenPresent() {
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", "same-origin", "http://proxy.example"))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", "none", null))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", "cross-site", "http://localhost:8080"))).isTrue();
		assertThat(CrossOrigin.isCrossOriginWrite(request("DELETE", "same-site", null))).isTrue();
	}

	@Test
	void withoutFetchMetadataTheOriginMustBeTheHost() {
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, null))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, "http://localhost:8080"))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, "http://LOCALHOST:8080"))).isFalse();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, "http://localhost:8081"))).isTrue();
		assertThat(CrossOrigin.isCrossOriginWrite(request("PUT", null, "http://evil.example"))).isTrue();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, "null"))).isTrue();
		assertThat(CrossOrigin.isCrossOriginWrite(request("POST", null, "not a url"))).isTrue();
	}

	private static MockHttpServletRequest request(String method, String site, String origin) {
		MockHttpServletRequest request = new MockHttpServletRequest(method, "/ojs/v1/jobs");
		request.addHeader("Host", "localhost:8080");
		if (site != null) {
			request.addHeader("Sec-Fetch-Site", site);
		}
		if (origin != null) {
			request.addHeader("Origin", origin);
		}
		return request;
	}

}

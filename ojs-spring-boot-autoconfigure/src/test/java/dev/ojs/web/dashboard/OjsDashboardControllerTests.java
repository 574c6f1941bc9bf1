package dev.ojs.web.dashboard;

import org.junit.jupiter.api.Test;

import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The dashboard's routes: the page with the Admin API's relative path filled in and a strict
 * content security policy, its assets with their types, and nothing else.
 */
class OjsDashboardControllerTests {

	@Test
	void theApiPathIsRelativeToThePage() {
		assertThat(OjsDashboardController.apiPath("/ojs")).isEqualTo("../ojs/v1/admin");
		assertThat(OjsDashboardController.apiPath("/ops/jobs")).isEqualTo("../../ojs/v1/admin");
	}

	@Test
	void servesThePageUnderItsPath() throws Exception {
		MockMvc mvc = mvc("/ojs");
		mvc.perform(get("/ojs")).andExpect(status().isFound()).andExpect(header().string("Location", "ojs/"));
		mvc.perform(get("/ojs/"))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("text/html"))
			.andExpect(content().string(containsString("<meta name=\"ojs-api\" content=\"../ojs/v1/admin\">")))
			.andExpect(content().string(containsString("<script src=\"assets/dashboard.js\" defer></script>")))
			.andExpect(header().string("Content-Security-Policy", startsWith("default-src 'self'; script-src 'self';")))
			.andExpect(header().string("Cache-Control", "no-store"));
		mvc.perform(get("/ojs/index.html")).andExpect(status().isOk());
	}

	@Test
	void servesAssetsWithTheirTypesAndNothingElse() throws Exception {
		MockMvc mvc = mvc("/ojs");
		mvc.perform(get("/ojs/assets/dashboard.js"))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("text/javascript"))
			.andExpect(header().string("X-Content-Type-Options", "nosniff"));
		mvc.perform(get("/ojs/assets/dashboard.css")).andExpect(content().contentTypeCompatibleWith("text/css"));
		mvc.perform(get("/ojs/assets/logo.svg")).andExpect(content().contentTypeCompatibleWith("image/svg+xml"));
		mvc.perform(get("/ojs/assets/missing.js")).andExpect(status().isNotFound());
		mvc.perform(get("/ojs/assets/index.html")).andExpect(status().isNotFound());
		mvc.perform(get("/ojs/assets/..%2Fdashboard.js")).andExpect(status().isNotFound());
	}

	@Test
	void followsAPathOfItsOwn() throws Exception {
		MockMvc mvc = mvc("/ops/jobs");
		mvc.perform(get("/ops/jobs")).andExpect(status().isFound()).andExpect(header().string("Location", "jobs/"));
		mvc.perform(get("/ops/jobs/"))
			.andExpect(content().string(containsString("content=\"../../ojs/v1/admin\"")));
		mvc.perform(get("/ojs/")).andExpect(status().isNotFound());
	}

	private static MockMvc mvc(String path) {
		return MockMvcBuilders.routerFunctions(new OjsDashboardController(path).routes()).build();
	}

}

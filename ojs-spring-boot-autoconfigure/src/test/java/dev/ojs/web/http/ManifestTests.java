package dev.ojs.web.http;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Manifest}: spec README decision 10, the level declared is the highest whose every
 * requirement passes; level 2 needs the cron endpoints (L2-CRON) and job expiry (L2-TTL).
 */
@SuppressWarnings("unchecked")
class ManifestTests {

	@Test
	void levelByTheSuitesRuleWithTheCronEndpointsAndJobTtl() {
		Map<String, Object> json = new Manifest("1.0.0", true).toJson("h2");
		// levels 0 to 4 pass (L1-TMO-001 and L1-VIS-001 too, and the workflows of level 3)
		assertThat(json.get("conformance_level")).isEqualTo(4);
		assertThat((List<String>) json.get("limitations")).noneMatch((limitation) -> limitation.contains("TMO-001")
				|| limitation.contains("VIS-001"));
		assertThat((Map<String, Object>) json.get("capabilities")).containsEntry("job_ttl", true).containsEntry("cron_jobs", true)
			.containsEntry("workflows", true);
	}

	@Test
	void levelWithoutTheCronEndpoints() {
		Map<String, Object> json = new Manifest("1.0.0", false).toJson("h2");
		assertThat(json.get("conformance_level")).isEqualTo(Manifest.LEVEL_WITHOUT_CRON).isEqualTo(1);
		assertThat((Map<String, Object>) json.get("capabilities")).containsEntry("cron_jobs", false);
	}

}

package dev.ojs.bench;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LimitFractionTests {

	@Test
	void everyRateBecomesAFractionOfTheLimit() {
		Map<String, Double> figures = new LinkedHashMap<>();
		figures.put("cold_jobs_per_sec", 2_000.0);
		figures.put("warm_jobs_per_sec", 8_000.0);
		figures.put("java_us_per_job", 90.0);
		ScenarioResult drain = new ScenarioResult("drain", 10_000, 2.0, LatencySummary.EMPTY, figures);
		ScenarioResult result = LimitFraction.addTo(drain, 20_000);
		assertThat(result.extra()).containsEntry("of_limit", 0.25)
			.containsEntry("cold_of_limit", 0.1)
			.containsEntry("warm_of_limit", 0.4)
			.containsEntry("limit_jobs_per_sec", 20_000.0)
			.doesNotContainKey("java_us_of_limit");
		assertThat(LimitFraction.describe(result))
			.isEqualTo("drain: 25.0% of the kept-rows limit (20,000 jobs/s in this run); cold 10.0%, warm 40.0%");
	}

	@Test
	void peersResultsAreFractionsToo() {
		ScenarioResult peer = new ScenarioResult("db-scheduler:drain", 5_000, 1.0, LatencySummary.EMPTY);
		assertThat(LimitFraction.addTo(peer, 10_000).extra()).containsEntry("of_limit", 0.5);
	}

	@Test
	void withoutALimitOrForOtherScenariosNothingIsAdded() {
		ScenarioResult steady = new ScenarioResult("steady", 100, 1.0, LatencySummary.EMPTY);
		assertThat(LimitFraction.addTo(steady, Double.NaN)).isSameAs(steady);
		assertThat(LimitFraction.describe(steady)).isEmpty();
		ScenarioResult idle = new ScenarioResult("idle", 100, 1.0, LatencySummary.EMPTY);
		assertThat(LimitFraction.addTo(idle, 1_000)).isSameAs(idle);
		ScenarioResult limit = new ScenarioResult("limit", 100, 1.0, LatencySummary.EMPTY);
		assertThat(LimitFraction.addTo(limit, 100)).isSameAs(limit);
	}

}

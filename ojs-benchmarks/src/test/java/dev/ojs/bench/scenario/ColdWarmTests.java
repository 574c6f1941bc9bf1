package dev.ojs.bench.scenario;

import org.junit.jupiter.api.Test;

import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ScenarioResult;

import static org.assertj.core.api.Assertions.assertThat;

class ColdWarmTests {

	@Test
	void eachPartHasItsRateAndJvmCpuPerJob() {
		// cold: 50,000 jobs in 10 s at 150% of a core = 300 µs/job; warm: 150,000 in 10 s at 120% = 80 µs/job
		ColdWarm coldWarm = new ColdWarm(50_000, 10, new CpuUsage.Split(150, 40, 200, 10), 150_000, 10,
				new CpuUsage.Split(120, 60, 200, 10));
		ScenarioResult result = coldWarm.addTo(new ScenarioResult("drain", 200_000, 20, LatencySummary.EMPTY));
		assertThat(result.extra()).containsEntry("cold_jobs", 50_000.0)
			.containsEntry("cold_jobs_per_sec", 5_000.0)
			.containsEntry("warm_jobs_per_sec", 15_000.0)
			.containsEntry("cold_java_us_per_job", 300.0)
			.containsEntry("warm_java_us_per_job", 80.0);
		assertThat(coldWarm.table("drain").render()).contains("cold", "warm", "5,000.00", "15,000.00");
	}

	@Test
	void aDrainNoLongerThanTheColdPartHasNoWarmRate() {
		ColdWarm coldWarm = new ColdWarm(1_000, 0.5, new CpuUsage.Split(100, 50, 150, 0.5), 0, 0,
				new CpuUsage.Split(Double.NaN, Double.NaN, Double.NaN, 0));
		assertThat(coldWarm.coldRate()).isEqualTo(2_000.0);
		assertThat(coldWarm.warmRate()).isNaN();
	}

}

package dev.ojs.bench;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonTests {

	private static ScenarioResult drain(double jobsPerSecond, double javaMicros) {
		return new ScenarioResult("drain", 1_000, 1_000 / jobsPerSecond, LatencySummary.EMPTY)
			.with("java_us_per_job", javaMicros);
	}

	@Test
	void ratiosAreOursOverTheirsWithTwoDecimals() {
		assertThat(Comparison.ratio(20_000, 8_000)).isEqualTo("2.50×");
		assertThat(Comparison.ratio(1, 3)).isEqualTo("0.33×");
		assertThat(Comparison.ratio(Double.NaN, 3)).isEqualTo("n/a");
		assertThat(Comparison.ratio(3, 0)).isEqualTo("n/a");
	}

	@Test
	void tableHasEachSystemAndARatioPerPeer() {
		Comparison comparison = new Comparison(List.of("ojs", "db-scheduler", "jobrunr"))
			.add("drain", "ojs", drain(20_000, 50))
			.add("drain", "db-scheduler", drain(8_000, 100))
			.add("drain", "jobrunr", drain(2_000, 400));
		List<List<String>> rows = comparison.table().rows();
		assertThat(rows).contains(List.of("drain", "jobs/s", "20,000.00", "8,000.00", "2,000.00", "2.50×", "10.00×"),
				List.of("drain", "JVM CPU µs/job", "50.00", "100.00", "400.00", "0.50×", "0.13×"));
		// figures no system measured are left out
		assertThat(rows).noneMatch((row) -> row.get(1).equals("WAL B/job"));
		assertThat(comparison.ratioLines()).containsExactly(
				"RATIO scenario=drain peer=db-scheduler jobs_per_sec=2.50 java_us_per_job=0.50",
				"RATIO scenario=drain peer=jobrunr jobs_per_sec=10.00 java_us_per_job=0.13");
	}

	@Test
	void steadyShowsWhatTheProducersEnqueuedBesideTheCompletions() {
		Comparison comparison = new Comparison(List.of("ojs", "db-scheduler"))
			.add("steady", "ojs",
					new ScenarioResult("steady", 9_000, 1, LatencySummary.EMPTY).with("enqueued_per_sec", 39_000))
			.add("steady", "db-scheduler",
					new ScenarioResult("steady", 7_000, 1, LatencySummary.EMPTY).with("enqueued_per_sec", 13_000));
		assertThat(comparison.table().rows()).contains(
				List.of("steady", "jobs/s", "9,000.00", "7,000.00", "1.29×"),
				List.of("steady", "enqueued/s", "39,000.00", "13,000.00", "3.00×"));
	}

	@Test
	void aScenarioAPeerDoesNotRunIsNotAvailable() {
		Comparison comparison = new Comparison(List.of("ojs", "jobrunr")).add("retry", "ojs", drain(10_000, 60));
		assertThat(comparison.table().rows()).contains(List.of("retry", "jobs/s", "10,000.00", "n/a", "n/a"));
		assertThat(comparison.ratioLines()).isEmpty();
	}

	@Test
	void withoutTheStarterThereAreNoRatios() {
		Comparison comparison = new Comparison(List.of("db-scheduler")).add("drain", "db-scheduler", drain(8_000, 100));
		assertThat(comparison.table().rows()).contains(List.of("drain", "jobs/s", "8,000.00"));
	}

}

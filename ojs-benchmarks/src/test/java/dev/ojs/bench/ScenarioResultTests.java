package dev.ojs.bench;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScenarioResultTests {

	@Test
	void resultLineStartsWithTheFixedFields() {
		ScenarioResult result = new ScenarioResult("steady", 30_000, 2.0,
				new LatencySummary(100, 1.234, 5.0, 9.876, 20, 2), Map.of("enqueued", 30_100.0));
		assertThat(result.resultLine()).isEqualTo("RESULT scenario=steady jobs_per_sec=15000 p50_ms=1.23 p99_ms=9.88"
				+ " p95_ms=5.00 jobs=30000 seconds=2.000 enqueued=30100.00");
	}

	@Test
	void missingLatencyPrintsNotAvailable() {
		ScenarioResult result = new ScenarioResult("drain", 1000, 0.5, LatencySummary.EMPTY);
		assertThat(result.resultLine()).startsWith("RESULT scenario=drain jobs_per_sec=2000 p50_ms=n/a p99_ms=n/a");
	}

	@Test
	void medianTakesEachFigureSeparately() {
		ScenarioResult a = new ScenarioResult("idle", 100, 1.0, new LatencySummary(100, 3, 4, 9, 10, 3),
				Map.of("x", 1.0));
		ScenarioResult b = new ScenarioResult("idle", 100, 4.0, new LatencySummary(100, 1, 2, 30, 40, 1),
				Map.of("x", 5.0));
		ScenarioResult c = new ScenarioResult("idle", 100, 2.0, new LatencySummary(100, 2, 3, 20, 25, 2),
				Map.of("x", 3.0));
		ScenarioResult median = ScenarioResult.median(List.of(a, b, c));
		assertThat(median.jobsPerSecond()).isEqualTo(50.0);
		assertThat(median.latency().p50()).isEqualTo(2.0);
		assertThat(median.latency().p99()).isEqualTo(20.0);
		assertThat(median.extra()).containsEntry("x", 3.0).containsEntry("runs", 3.0);
		assertThat(ScenarioResult.median(List.of(a, b)).latency().p50()).isEqualTo(2.0);
	}

	@Test
	void tableAlignsColumns() {
		ResultTable table = new ResultTable("drain", "mode", "jobs/s").row("delete", 21034.4).row("keep 1h", 9.0);
		assertThat(table.render()).isEqualTo(String.join(System.lineSeparator(), "== drain ==", "mode    |    jobs/s",
				"--------+----------", "delete  | 21,034.40", "keep 1h |      9.00", ""));
		assertThat(ResultTable.format(1234567L)).isEqualTo("1,234,567");
		assertThat(ResultTable.format(Double.NaN)).isEqualTo("n/a");
	}

}

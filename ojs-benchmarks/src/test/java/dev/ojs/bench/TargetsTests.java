package dev.ojs.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ojs.bench.Targets.Verdict;

import static org.assertj.core.api.Assertions.assertThat;

class TargetsTests {

	@Test
	void judgesEveryTargetWhoseScenariosRan() {
		Map<String, ScenarioResult> results = new LinkedHashMap<>();
		results.put("drain", rate("drain", 16_910));
		results.put("steady", rate("steady", 15_000));
		results.put("idle", new ScenarioResult("idle", 200, 20, new LatencySummary(200, 3.25, 4.17, 5.43, 24.8, 3.4)));
		results.put("retry", rate("retry", 5_735));
		results.put("backlog", rate("backlog", 14_031).with("large_to_small", 0.98));
		assertThat(Targets.judge(results)).containsExactly(
				new Verdict("drain ≥ 20,000 jobs/s", "16,910 jobs/s", false),
				new Verdict("steady ≥ 15,000 jobs/s", "15,000 jobs/s", true),
				new Verdict("idle p50 < 10 ms and p99 < 50 ms", "p50 3.25 ms, p99 5.43 ms", true),
				new Verdict("retry ≥ 50% of drain", "5,735 jobs/s = 34% of 16,910", false),
				new Verdict("1M backlog within 20% of 10k", "14,031 jobs/s = 0.98× the 10k rate", true));
	}

	@Test
	void boundariesAndMissingScenarios() {
		assertThat(Targets.judge(Map.of("retry", rate("retry", 10_000)))).as("retry needs the drain").isEmpty();
		assertThat(Targets.judge(Map.of("drain", rate("drain", 20_000), "retry", rate("retry", 10_000))))
			.extracting(Verdict::met)
			.containsExactly(true, true);
		assertThat(Targets.judge(Map.of("idle",
				new ScenarioResult("idle", 200, 20, new LatencySummary(200, 9.99, 20, 50, 60, 9)))))
			.extracting(Verdict::met)
			.containsExactly(false);
		assertThat(Targets.judge(Map.of("backlog", rate("backlog", 1).with("large_to_small", 0.79))))
			.extracting(Verdict::met)
			.containsExactly(false);
	}

	/** Issue 29 §7: a workflow step's CPU is at most 1.5× a plain job's, the worst kind of workflow judged. */
	@Test
	void workflowStepCpuIsJudgedByItsWorstRatio() {
		assertThat(Targets.judge(Map.of("workflow", rate("workflow", 1).with("cpu_ratio_max", 1.5))))
			.containsExactly(new Verdict("workflow step CPU ≤ 1.5× a plain job's", "at most 1.50× (groups, batches, chains)",
					true));
		assertThat(Targets.judge(Map.of("workflow", rate("workflow", 1).with("cpu_ratio_max", 1.51))))
			.extracting(Verdict::met)
			.containsExactly(false);
		assertThat(Targets.judge(Map.of("workflow", rate("workflow", 1)))).as("no ratio measured")
			.extracting(Verdict::met)
			.containsExactly(false);
	}

	/**
	 * The steady scenario is throttled at the target rate by default: it meets the target by
	 * keeping up with it, since it cannot complete more than it is offered.
	 */
	@Test
	void steadyStateMeetsTheTargetByKeepingUpWithIt() {
		assertThat(Targets.judge(Map.of("steady", steady(14_998, 14_998.5, 100)))).singleElement()
			.isEqualTo(new Verdict("steady ≥ 15,000 jobs/s", "14,998 jobs/s of 14,999 enqueued/s, backlog 100 at the end",
					true));
		assertThat(Targets.judge(Map.of("steady", steady(14_000, 14_998, 30_000)))).as("fell behind")
			.extracting(Verdict::met)
			.containsExactly(false);
		assertThat(Targets.judge(Map.of("steady", steady(12_000, 12_000, 0)))).as("offered less than the target")
			.extracting(Verdict::met)
			.containsExactly(false);
		assertThat(Targets.judge(Map.of("steady", steady(16_000, 20_000, 120_000)))).as("offered more, completed enough")
			.extracting(Verdict::met)
			.containsExactly(true);
	}

	private static ScenarioResult steady(double completed, double enqueued, double backlog) {
		return rate("steady", completed).with("enqueued_per_sec", enqueued).with("backlog_at_end", backlog);
	}

	@Test
	void printsATableAndACountLine() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
		Targets.print(Targets.judge(Map.of("drain", rate("drain", 25_000), "steady", rate("steady", 9_000))), out);
		assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("drain ≥ 20,000 jobs/s", "MISSED")
			.contains("TARGETS met=1 missed=1");
		bytes.reset();
		Targets.print(List.of(), out);
		assertThat(bytes.toString(StandardCharsets.UTF_8)).isEmpty();
	}

	private static ScenarioResult rate(String scenario, double jobsPerSecond) {
		return new ScenarioResult(scenario, (long) jobsPerSecond, 1.0, LatencySummary.EMPTY);
	}

}

package dev.ojs.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchmarkOptionsTests {

	@Test
	void systemsDefaultToTheStarterAlone() {
		assertThat(BenchmarkOptions.parse(CommandLine.parse()).systems()).containsExactly("ojs");
	}

	@Test
	void systemsAreReadInOrder() {
		BenchmarkOptions options = BenchmarkOptions
			.parse(CommandLine.parse("--systems=ojs,db-scheduler,jobrunr", "--scenario=drain,retry"));
		assertThat(options.systems()).containsExactly("ojs", "db-scheduler", "jobrunr");
		assertThat(options.scenarios()).containsExactly("drain", "retry");
	}

	@Test
	void unknownOrRepeatedSystemsAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--systems=ojs,quartz")))
			.withMessageContaining("quartz");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--systems=ojs,ojs")))
			.withMessageContaining("once");
	}

	@Test
	void peersRunTheScenariosTheyCan() {
		assertThat(List.of("enqueue-batch", "drain", "steady", "retry"))
			.allMatch((scenario) -> dev.ojs.bench.scenario.PeerScenario.runs("db-scheduler", scenario));
		assertThat(dev.ojs.bench.scenario.PeerScenario.runs("jobrunr", "retry")).isFalse();
		assertThat(dev.ojs.bench.scenario.PeerScenario.runs("db-scheduler", "idle")).isFalse();
	}

	@Test
	void limitAndSoakAreNotInAllAndWithLimitRunsTheLimitFirst() {
		assertThat(BenchmarkOptions.parse(CommandLine.parse()).scenarios()).doesNotContain("limit", "soak");
		BenchmarkOptions options = BenchmarkOptions.parse(CommandLine.parse("--scenario=drain,steady", "--with-limit"));
		assertThat(options.scenarios()).containsExactly("limit", "drain", "steady");
		assertThat(BenchmarkOptions.parse(CommandLine.parse("--scenario=drain,limit", "--with-limit")).scenarios())
			.containsExactly("drain", "limit");
	}

	@Test
	void limitAndSoakDefaultsFollowTheBenchmarkIssue() {
		BenchmarkOptions options = BenchmarkOptions.parse(CommandLine.parse("--scenario=limit,soak"));
		assertThat(options.limit()).isEqualTo(new LimitOptions(8, 100, Duration.ofSeconds(15), false));
		assertThat(options.soak().fraction()).isEqualTo(0.6);
		assertThat(options.soak().drainRate()).isZero();
		assertThat(options.soak().duration()).isEqualTo(Duration.ofMinutes(30));
		assertThat(options.soak().retention()).isEqualTo(Duration.ofMinutes(10));
		assertThat(options.soak().interval()).isEqualTo(Duration.ofMinutes(1));
		assertThat(options.coldJobs()).isEqualTo(50_000);
		assertThat(options.httpWorkers()).isEqualTo(4);
	}

	@Test
	void soakOptionsAreReadAndChecked() {
		SoakOptions soak = BenchmarkOptions.parse(CommandLine.parse("--scenario=soak", "--soak-fraction=0.5",
				"--soak-drain-rate=10k", "--soak-duration=1m", "--soak-interval=30s", "--soak-retention=PT2M",
				"--output-dir=/tmp/soak"))
			.soak();
		assertThat(soak.offeredRate(10_000)).isEqualTo(5_000);
		assertThat(soak.drainRate()).isEqualTo(10_000);
		assertThat(soak.interval()).isEqualTo(Duration.ofSeconds(30));
		assertThat(soak.outputDirectory()).isEqualTo(Path.of("/tmp/soak"));
		assertThat(soak.offeredRate(0.5)).isEqualTo(1);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--soak-fraction=half")))
			.withMessageContaining("--soak-fraction");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--soak-fraction=0")))
			.withMessageContaining("above 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--soak-duration=10s", "--soak-interval=1m")))
			.withMessageContaining("--soak-interval");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--limit-clients=0")))
			.withMessageContaining("--limit-clients");
	}

	@Test
	void workflowIsNotInAllAndItsSizesFollowIssue29() {
		assertThat(BenchmarkOptions.parse(CommandLine.parse()).scenarios()).doesNotContain("workflow");
		BenchmarkOptions options = BenchmarkOptions.parse(CommandLine.parse("--scenario=workflow"));
		assertThat(options.scenarios()).containsExactly("workflow");
		assertThat(options.workflow()).isEqualTo(new WorkflowOptions(10_000, 100, 20_000, 100, 10));
		assertThat(BenchmarkOptions.parse(CommandLine.parse("--scenario=workflow", "--workflow-batch=50k",
				"--workflow-chain=500", "--workflow-jobs=1k", "--workflow-group-size=10", "--workflow-chain-length=4"))
			.workflow()).isEqualTo(new WorkflowOptions(50_000, 500, 1_000, 10, 4));
	}

	@Test
	void workflowSizesAreChecked() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--workflow-chain=1001")))
			.withMessageContaining("--workflow-chain");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--workflow-chain-length=1")))
			.withMessageContaining("--workflow-chain-length");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--workflow-batch=0")))
			.withMessageContaining("--workflow-batch");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(CommandLine.parse("--workflow-group-size=1001")))
			.withMessageContaining("--workflow-group-size");
	}

}

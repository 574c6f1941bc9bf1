package dev.ojs.bench;

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

}

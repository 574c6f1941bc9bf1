package dev.ojs.bench.chaos;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ojs.bench.BenchTestDatabase;
import dev.ojs.bench.TeeOutput;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the fault-injection harness: the short configuration by default (2 workers, 1,000
 * jobs, 2 kills, 1 PostgreSQL restart, 1,000 bad inputs), the full one with
 * {@code -Dojs.chaos.long=true}. The PostgreSQL restart follows
 * {@code -Dojs.chaos.pg-restart} ({@code auto}: when {@code pg_ctlcluster} is available);
 * with {@code CI=true} it is required.
 */
class ChaosHarnessTests {

	@Test
	void everyCheckPasses() throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		boolean full = Boolean.getBoolean("ojs.chaos.long");
		String pgRestart = "true".equalsIgnoreCase(System.getenv("CI")) ? "always"
				: System.getProperty("ojs.chaos.pg-restart", "auto");
		List<String> args = new ArrayList<>(List.of("--jdbc-url=" + url, "--pg-restart=" + pgRestart,
				"--log-dir=target/chaos-logs"));
		if (!full) {
			args.add("--short");
		}
		TeeOutput out = new TeeOutput();
		int status = ChaosCoordinator.run(args.toArray(String[]::new), out);
		assertThat(status).as("exit status; see the check table above").isZero();
		assertThat(out.text()).contains("CHAOS PASSED", "RESULT scenario=chaos");
	}

}

package dev.ojs.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark scenario in {@code --smoke} mode against PostgreSQL so the module
 * cannot rot. Figures are printed, never asserted.
 */
class BenchmarkSmokeTests {

	static final java.util.List<String> SCENARIOS = BenchmarkOptions.ALL;

	@ParameterizedTest(name = "{0}")
	@FieldSource("SCENARIOS")
	void scenarioCompletesAndPrintsItsResultLine(String scenario) throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=" + scenario, "--jdbc-url=" + url },
				out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.lastLine())
			.matches("RESULT scenario=" + scenario + " jobs_per_sec=\\S+ p50_ms=\\S+ p99_ms=\\S+( \\S+=\\S+)*");
		assertThat(out.text()).contains("== " + scenario);
		if (scenario.equals("drain") || scenario.equals("retry") || scenario.equals("steady")) {
			// what PostgreSQL wrote per job (pg_stat_wal): a drained job writes at least its row twice
			assertThat(out.lastLine()).containsPattern(" wal_bytes_per_job=[1-9][0-9]{2,}\\.");
		}
		if (scenario.equals("idle")) {
			// enqueued on the worker's node and on another node (NOTIFY only)
			assertThat(out.text()).contains("the worker's node", "another node");
			assertThat(out.lastLine()).containsPattern(" other_p50_ms=[0-9.]+ other_p99_ms=[0-9.]+");
		}
		if (scenario.equals("cron")) {
			// ojs-cron.md §7.3: exactly one job per recurring job and occurrence
			assertThat(out.lastLine()).contains(" jobs=200 ", " jobs_created=200.00 ", " duplicate_jobs=0.00 ");
		}
	}

	/** HTTP workers in a process of their own drain jobs over the binding, with per-job and batch acks. */
	@Test
	void httpScenarioDrainsOverTheBindingFromAnotherProcess() throws Exception {
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=http", "--http-workers=2",
				"--jdbc-url=" + BenchTestDatabase.postgresUrl() }, out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.lastLine()).startsWith("RESULT scenario=http ")
			.containsPattern(" of_in_process=[0-9.]+ ")
			.containsPattern(" batch_ack_jobs_per_sec=[1-9][0-9.]* ");
	}

	/** A queue limited on all nodes: two nodes drain it within its limit (the scenario fails on more active). */
	@Test
	void limitedQueueScenarioReportsItsRateAgainstWhatTheLimitAllows() throws Exception {
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=limited",
				"--jdbc-url=" + BenchTestDatabase.postgresUrl() }, out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.lastLine()).startsWith("RESULT scenario=limited ")
			.containsPattern(" limit10_of_allowed=[0-9.]+ ")
			.containsPattern(" limit24_max_active=([0-9]|1[0-9]|2[0-4])\\.");
	}

	@Test
	void repeatedRunsEndWithTheirMedian() throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=enqueue-single", "--runs=3",
				"--warmup-runs=1", "--enqueue-jobs=50", "--jdbc-url=" + url }, out);
		assertThat(status).isZero();
		assertThat(out.text()).contains("enqueue-single warm-up 1 of 1 (not measured)", "enqueue-single run 3 of 3",
				"enqueue-single median of 3 runs");
		assertThat(out.text().lines().filter((line) -> line.startsWith("WARMUP RESULT scenario=enqueue-single")))
			.hasSize(1);
		// the warm-up's result stays out of the median
		assertThat(out.lastLine()).startsWith("RESULT scenario=enqueue-single").endsWith("runs=3.00");
	}

	@Test
	void peersRunBesideTheStarterAndTheRatiosFollow() throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=drain,retry",
				"--systems=ojs,db-scheduler,jobrunr", "--drain-jobs=300", "--retry-jobs=300", "--jdbc-url=" + url }, out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.text()).contains("RESULT scenario=drain ", "RESULT scenario=db-scheduler:drain ",
				"RESULT scenario=jobrunr:drain ", "RESULT scenario=db-scheduler:retry ", "lock-and-fetch",
				"poll interval PT5S", "== comparison", "RATIO scenario=drain peer=db-scheduler jobs_per_sec=",
				"RATIO scenario=drain peer=jobrunr jobs_per_sec=", "RATIO scenario=retry peer=db-scheduler")
			.doesNotContain("jobrunr:retry", "FAILED");
	}

	@Test
	void limitRunsFirstAndDrainAndSoakReportFractionsOfIt(@TempDir Path output) throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=drain,soak", "--with-limit",
				"--limit-duration=1s", "--drain-jobs=600", "--cold-jobs=200", "--soak-duration=2s", "--soak-interval=1s",
				"--output-dir=" + output, "--jdbc-url=" + url }, out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.text()).contains("== limit: plain JDBC, 8 clients", "RESULT scenario=limit ",
				"deleted_jobs_per_sec=", "cold_jobs_per_sec=", "warm_jobs_per_sec=", "warm_of_limit=",
				"soak: the warm drain rate of the drain run before", "soak sample elapsed_s=");
		assertThat(out.lastLine()).startsWith("RESULT scenario=soak ").contains(" samples=2.00 ", " of_limit=");
		try (var files = Files.list(output)) {
			assertThat(files.map((file) -> file.getFileName().toString().replaceAll("[0-9-]", "")))
				.containsExactlyInAnyOrder("soak.csv", "soak.svg");
		}
	}

	/**
	 * Issue 29 §7: a batch created in one call whose callback runs exactly once, a chain step to
	 * step, and the CPU of workflow steps against plain jobs, on PostgreSQL and on MariaDB.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "postgresql", "mariadb" })
	void workflowScenarioCountsOneCallbackAndComparesCpu(String database) throws Exception {
		String url = database.equals("mariadb") ? BenchTestDatabase.mariaDbUrl() : BenchTestDatabase.postgresUrl();
		TeeOutput out = new TeeOutput();
		int status = BenchmarkApplication.run(new String[] { "--smoke", "--scenario=workflow", "--workflow-batch=1500",
				"--workflow-chain=12", "--jdbc-url=" + url }, out);
		assertThat(status).as(out.text()).isZero();
		assertThat(out.text()).contains("== workflow: a batch of 1500 no-op jobs created in one call", "callbacks: 1",
				"== workflow: a chain of 12 no-op steps", "what wakes the next step", "batches of 20 + callback",
				"chains of 5", "plain jobs, again");
		assertThat(out.lastLine()).startsWith("RESULT scenario=workflow ")
			.contains(" jobs=1500 ", " batch_jobs=1500.00 ", " callbacks=1.00 ", " chain_steps=12.00 ")
			.containsPattern(" cpu_ratio_max=[0-9.]+");
	}

	@Test
	void badOptionsPrintUsage() throws Exception {
		TeeOutput out = new TeeOutput();
		assertThat(BenchmarkApplication.run(new String[] { "--scenario=warp" }, out)).isEqualTo(2);
		assertThat(out.text()).contains("Unknown scenario 'warp'", "Usage:");
		TeeOutput typo = new TeeOutput();
		assertThat(BenchmarkApplication.run(new String[] { "--drain-jbos=5" }, typo)).isEqualTo(2);
		assertThat(typo.text()).contains("--drain-jbos");
	}

}

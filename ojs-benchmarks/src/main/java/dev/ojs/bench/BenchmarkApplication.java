package dev.ojs.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ojs.bench.chaos.ChaosCoordinator;
import dev.ojs.bench.scenario.BenchEnvironment;
import dev.ojs.bench.scenario.PeerScenario;
import dev.ojs.bench.scenario.Scenario;

/**
 * The benchmark program: runs the chosen scenarios against PostgreSQL, each printing a
 * table and a last line {@code RESULT scenario=… jobs_per_sec=… p50_ms=… p99_ms=…}.
 * {@code --scenario=chaos} runs the fault-injection harness instead.
 * <pre>
 * java -jar ojs-benchmarks/target/ojs-benchmarks.jar --scenario=all --jdbc-url=jdbc:postgresql://127.0.0.1:5432/ojs_bench?user=postgres
 * </pre>
 */
public final class BenchmarkApplication {

	/** The scenarios that run on MariaDB as well as on PostgreSQL. */
	static final List<String> MARIADB_SCENARIOS = List.of("drain", "retry", "backlog", "limit", "soak",
			"workflow");

	private BenchmarkApplication() {
	}

	public static void main(String[] args) throws Exception {
		int status;
		if (args.length > 0 && args[0].startsWith("--jfr-summary=")) {
			CommandLine line = CommandLine.parse(args);
			JfrSummary.print(java.nio.file.Path.of(line.string("jfr-summary", null)), line.string("jfr-threads", ""),
					System.out);
			line.rejectUnused();
			status = 0;
		}
		else if (Arrays.asList(args).contains("--scenario=chaos")) {
			status = ChaosCoordinator.run(Arrays.stream(args).filter((arg) -> !arg.equals("--scenario=chaos"))
				.toArray(String[]::new), System.out);
		}
		else {
			status = run(args, System.out);
		}
		System.exit(status);
	}

	/**
	 * Runs the benchmark.
	 * @param args command-line options
	 * @param out where tables and result lines go
	 * @return the exit status: 0 when every scenario completed, 1 when one failed, 2 for bad options
	 */
	public static int run(String[] args, PrintStream out) throws Exception {
		CommandLine.Parsed<BenchmarkOptions> parsed = CommandLine.read(args, BenchmarkOptions.USAGE, out,
				BenchmarkOptions::parse);
		BenchmarkOptions options = parsed.options();
		if (options == null) {
			return parsed.status();
		}
		if (BenchDatabase.isMariaDb(options.jdbcUrl()) && (!MARIADB_SCENARIOS.containsAll(options.scenarios())
				|| !options.systems().equals(List.of(BenchmarkOptions.OJS)))) {
			out.println("On MariaDB the benchmark runs the starter's " + MARIADB_SCENARIOS
					+ " scenarios only (the others, and the peers, use PostgreSQL's statistics or SQL)");
			return 2;
		}
		if (BenchDatabase.ensureDatabase(options.jdbcUrl())) {
			out.println("created database " + BenchDatabase.databaseName(options.jdbcUrl()));
		}
		int failures = 0;
		Map<String, ScenarioResult> judged = new LinkedHashMap<>();
		Comparison comparison = new Comparison(options.systems());
		// the last measured result of each scenario, for the ones after it (soak takes drain's warm rate)
		Map<String, ScenarioResult> earlier = new LinkedHashMap<>();
		double limit = Double.NaN;
		for (String name : options.scenarios()) {
			for (String system : options.systems()) {
				boolean ours = system.equals(BenchmarkOptions.OJS);
				if (!ours && !PeerScenario.runs(system, name)) {
					continue;
				}
				Scenario scenario = ours ? Scenario.named(name) : new PeerScenario(system, name);
				List<ScenarioResult> results = new ArrayList<>();
				int total = options.warmupRuns() + options.runs();
				for (int run = 1; run <= total; run++) {
					boolean warmup = run <= options.warmupRuns();
					out.printf("%n# %s%s%n", scenario.name(), warmup
							? " warm-up " + run + " of " + options.warmupRuns() + " (not measured)"
							: (options.runs() > 1) ? " run " + (run - options.warmupRuns()) + " of " + options.runs() : "");
					try (BenchEnvironment environment = new BenchEnvironment(options, out, earlier)) {
						ScenarioResult result = LimitFraction.addTo(scenario.run(environment), limit);
						if (!warmup) {
							results.add(result);
							earlier.put(name, result);
						}
						if (!LimitFraction.describe(result).isEmpty()) {
							out.println(LimitFraction.describe(result));
						}
						out.println((warmup ? "WARMUP " : "") + result.resultLine());
					}
					catch (Exception ex) {
						failures++;
						out.println("FAILED scenario=" + scenario.name() + ": " + ex);
						ex.printStackTrace(out);
					}
				}
				ScenarioResult summary = results.isEmpty() ? null
						: (results.size() == 1) ? results.get(0) : ScenarioResult.median(results);
				if (results.size() > 1) {
					out.printf("%n# %s median of %d runs%n", scenario.name(), results.size());
					out.println(summary.resultLine());
				}
				if (summary != null) {
					if (ours && name.equals("limit")) {
						limit = summary.jobsPerSecond();
					}
					comparison.add(name, system, summary);
					if (ours) {
						judged.put(name, summary);
					}
				}
			}
		}
		if (options.systems().size() > 1) {
			comparison.print(out);
		}
		if (!options.smoke()) {
			// tiny smoke sizes say nothing about the targets
			Targets.print(Targets.judge(judged), out);
		}
		return (failures == 0) ? 0 : 1;
	}

}

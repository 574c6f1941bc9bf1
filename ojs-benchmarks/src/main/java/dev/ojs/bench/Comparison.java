package dev.ojs.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The starter beside its peers: per scenario, each system's figure (median when repeated)
 * and the ratio {@code ojs ÷ peer} for each peer. For jobs/s a ratio above 1 means the
 * starter is faster; for CPU per job a ratio below 1 means it uses less.
 */
public final class Comparison {

	/** The figures compared, in order: name in the table, key in {@link ScenarioResult}. */
	private static final Map<String, String> FIGURES = figures();

	private final List<String> systems;

	/** scenario → system → result */
	private final Map<String, Map<String, ScenarioResult>> results = new LinkedHashMap<>();

	/**
	 * @param systems the systems in column order; ratios are printed when {@code ojs} is one
	 */
	public Comparison(List<String> systems) {
		this.systems = List.copyOf(systems);
	}

	/** Records a system's result (or median) of a scenario. */
	public Comparison add(String scenario, String system, ScenarioResult result) {
		this.results.computeIfAbsent(scenario, (key) -> new LinkedHashMap<>()).put(system, result);
		return this;
	}

	/** The table: one row per scenario and figure; "n/a" where a system did not run it. */
	public ResultTable table() {
		List<String> headers = new ArrayList<>(List.of("scenario", "figure"));
		headers.addAll(this.systems);
		List<String> peers = peers();
		for (String peer : peers) {
			headers.add(BenchmarkOptions.OJS + " ÷ " + peer);
		}
		ResultTable table = new ResultTable("comparison: medians, ratio = ojs ÷ peer", headers.toArray(String[]::new));
		this.results.forEach((scenario, bySystem) -> FIGURES.forEach((label, key) -> {
			if (bySystem.values().stream().noneMatch((result) -> !Double.isNaN(value(result, key)))) {
				return;
			}
			List<Object> row = new ArrayList<>(List.of(scenario, label));
			for (String system : this.systems) {
				ScenarioResult result = bySystem.get(system);
				row.add((result != null) ? value(result, key) : Double.NaN);
			}
			ScenarioResult ours = bySystem.get(BenchmarkOptions.OJS);
			for (String peer : peers) {
				ScenarioResult theirs = bySystem.get(peer);
				row.add(ratio((ours != null) ? value(ours, key) : Double.NaN,
						(theirs != null) ? value(theirs, key) : Double.NaN));
			}
			table.row(row.toArray());
		}));
		return table;
	}

	/**
	 * One line per scenario and peer:
	 * {@code RATIO scenario=drain peer=db-scheduler jobs_per_sec=2.43 java_us_per_job=0.41 …}.
	 */
	public List<String> ratioLines() {
		List<String> lines = new ArrayList<>();
		this.results.forEach((scenario, bySystem) -> {
			ScenarioResult ours = bySystem.get(BenchmarkOptions.OJS);
			for (String peer : peers()) {
				ScenarioResult theirs = bySystem.get(peer);
				if (ours == null || theirs == null) {
					continue;
				}
				StringBuilder line = new StringBuilder("RATIO scenario=").append(scenario).append(" peer=").append(peer);
				FIGURES.values().forEach((key) -> {
					double ratio = value(ours, key) / value(theirs, key);
					if (!Double.isNaN(ratio) && !Double.isInfinite(ratio)) {
						line.append(' ').append(key).append('=').append(String.format(Locale.ROOT, "%.2f", ratio));
					}
				});
				lines.add(line.toString());
			}
		});
		return lines;
	}

	public void print(PrintStream out) {
		out.println();
		table().print(out);
		ratioLines().forEach(out::println);
	}

	/**
	 * A ratio as printed: two decimals and {@code ×}, or {@code n/a} when either side is
	 * missing or zero.
	 */
	static String ratio(double ours, double theirs) {
		if (Double.isNaN(ours) || Double.isNaN(theirs) || theirs == 0) {
			return "n/a";
		}
		return String.format(Locale.ROOT, "%.2f×", ours / theirs);
	}

	private List<String> peers() {
		if (!this.systems.contains(BenchmarkOptions.OJS)) {
			return List.of();
		}
		return this.systems.stream().filter((system) -> !system.equals(BenchmarkOptions.OJS)).toList();
	}

	private static double value(ScenarioResult result, String key) {
		return key.equals("jobs_per_sec") ? result.jobsPerSecond() : result.extra().getOrDefault(key, Double.NaN);
	}

	private static Map<String, String> figures() {
		Map<String, String> figures = new LinkedHashMap<>();
		figures.put("jobs/s", "jobs_per_sec");
		figures.put("executions/s", "executions_per_sec");
		// steady: what the producers enqueued beside the worker, whose completions are jobs/s
		figures.put("enqueued/s", "enqueued_per_sec");
		figures.put("JVM CPU µs/job", "java_us_per_job");
		figures.put("PostgreSQL CPU µs/job", "pg_us_per_job");
		figures.put("WAL B/job", "wal_bytes_per_job");
		return figures;
	}

}

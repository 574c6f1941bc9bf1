package dev.ojs.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The figures of one scenario run, printed as the scenario's last line:
 * {@code RESULT scenario=drain jobs_per_sec=21034 p50_ms=1.20 p99_ms=4.80 ...}.
 *
 * @param scenario scenario name
 * @param jobs jobs measured
 * @param seconds measured wall-clock time
 * @param latency enqueue-to-start (or call) latency; {@link LatencySummary#EMPTY} when not
 * measured
 * @param extra further {@code key=value} figures, in order
 */
public record ScenarioResult(String scenario, long jobs, double seconds, LatencySummary latency,
		Map<String, Double> extra) {

	public ScenarioResult {
		extra = Collections.unmodifiableMap(new LinkedHashMap<>(extra));
	}

	public ScenarioResult(String scenario, long jobs, double seconds, LatencySummary latency) {
		this(scenario, jobs, seconds, latency, Map.of());
	}

	public double jobsPerSecond() {
		return (this.seconds > 0) ? this.jobs / this.seconds : Double.NaN;
	}

	/** The same result with one more {@code key=value} figure. */
	public ScenarioResult with(String key, double value) {
		Map<String, Double> more = new LinkedHashMap<>(this.extra);
		more.put(key, value);
		return new ScenarioResult(this.scenario, this.jobs, this.seconds, this.latency, more);
	}

	/** The machine-readable line every scenario ends with. */
	public String resultLine() {
		StringBuilder line = new StringBuilder("RESULT scenario=").append(this.scenario);
		line.append(" jobs_per_sec=").append(figure(jobsPerSecond(), 0));
		line.append(" p50_ms=").append(figure(this.latency.p50(), 2));
		line.append(" p99_ms=").append(figure(this.latency.p99(), 2));
		line.append(" p95_ms=").append(figure(this.latency.p95(), 2));
		line.append(" jobs=").append(this.jobs);
		line.append(" seconds=").append(figure(this.seconds, 3));
		this.extra.forEach((key, value) -> line.append(' ').append(key).append('=').append(figure(value, 2)));
		return line.toString();
	}

	/**
	 * The median of several runs of one scenario: each figure is the median of that figure
	 * over the runs (so the median jobs/s need not come from the same run as the median p99).
	 * @param runs at least one result of the same scenario
	 * @return a result whose {@link #jobsPerSecond()} is the median rate
	 */
	public static ScenarioResult median(List<ScenarioResult> runs) {
		if (runs.isEmpty()) {
			throw new IllegalArgumentException("No runs");
		}
		ScenarioResult first = runs.get(0);
		double rate = median(runs, ScenarioResult::jobsPerSecond);
		LatencySummary latency = new LatencySummary((int) median(runs, (r) -> r.latency().count()),
				median(runs, (r) -> r.latency().p50()), median(runs, (r) -> r.latency().p95()),
				median(runs, (r) -> r.latency().p99()), median(runs, (r) -> r.latency().max()),
				median(runs, (r) -> r.latency().mean()));
		// median jobs; seconds derived so that jobs / seconds is the median rate
		long jobs = (long) median(runs, (r) -> r.jobs());
		double seconds = Double.isNaN(rate) || rate == 0 ? Double.NaN : jobs / rate;
		Map<String, Double> extra = new LinkedHashMap<>();
		for (String key : first.extra().keySet()) {
			extra.put(key, median(runs, (r) -> r.extra().getOrDefault(key, Double.NaN)));
		}
		extra.put("runs", (double) runs.size());
		return new ScenarioResult(first.scenario(), jobs, seconds, latency, extra);
	}

	static double median(List<ScenarioResult> runs, ToDoubleFunction<ScenarioResult> figure) {
		List<Double> values = new ArrayList<>();
		for (ScenarioResult run : runs) {
			double value = figure.applyAsDouble(run);
			if (!Double.isNaN(value)) {
				values.add(value);
			}
		}
		if (values.isEmpty()) {
			return Double.NaN;
		}
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static String figure(double value, int decimals) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, "%." + decimals + "f", value);
	}

}

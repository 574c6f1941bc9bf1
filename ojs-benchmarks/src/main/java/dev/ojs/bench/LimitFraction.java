package dev.ojs.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Throughput as a fraction of the machine's own limit: the {@code limit} scenario's kept-rows
 * rate measured earlier in the same run. A result gains {@code of_limit} (its jobs/s ÷ the limit)
 * and, for each further rate {@code X_jobs_per_sec} it reports (cold, warm, in-process),
 * {@code X_of_limit}. Peers' results too.
 */
public final class LimitFraction {

	/** The scenarios whose jobs/s is a throughput that the limit bounds. */
	static final Set<String> THROUGHPUT = Set.of("enqueue-single", "enqueue-batch", "drain", "retry", "steady",
			"backlog", "http", "soak");

	private static final String RATE = "jobs_per_sec";

	private LimitFraction() {
	}

	/**
	 * The result with its fractions of the limit.
	 * @param result a scenario's result
	 * @param limit the kept-rows limit in jobs/s; {@code NaN} when none was measured
	 * @return the result, unchanged without a limit or for a scenario that is not a throughput
	 */
	public static ScenarioResult addTo(ScenarioResult result, double limit) {
		// a peer's result is named peer:scenario
		String scenario = result.scenario().substring(result.scenario().indexOf(':') + 1);
		if (!(limit > 0) || !THROUGHPUT.contains(scenario)) {
			return result;
		}
		ScenarioResult with = result.with("of_limit", result.jobsPerSecond() / limit);
		for (Map.Entry<String, Double> figure : result.extra().entrySet()) {
			String key = figure.getKey();
			if (key.endsWith("_" + RATE)) {
				with = with.with(key.substring(0, key.length() - RATE.length()) + "of_limit", figure.getValue() / limit);
			}
		}
		return with.with("limit_jobs_per_sec", limit);
	}

	/**
	 * A readable line of a result's fractions, such as
	 * {@code drain: 41.2% of the limit (cold 20.3%, warm 45.0%)}; empty when it has none.
	 * @param result a result from {@link #addTo(ScenarioResult, double)}
	 * @return the line
	 */
	public static String describe(ScenarioResult result) {
		Double total = result.extra().get("of_limit");
		if (total == null) {
			return "";
		}
		List<String> parts = new ArrayList<>();
		result.extra().forEach((key, value) -> {
			if (key.endsWith("_of_limit")) {
				parts.add(key.substring(0, key.length() - "_of_limit".length()).replace('_', '-') + " "
						+ percent(value));
			}
		});
		return String.format(Locale.ROOT, "%s: %s of the kept-rows limit (%,.0f jobs/s in this run)%s",
				result.scenario(), percent(total), result.extra().get("limit_jobs_per_sec"),
				parts.isEmpty() ? "" : "; " + String.join(", ", parts));
	}

	private static String percent(double fraction) {
		return Double.isNaN(fraction) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", fraction * 100);
	}

}

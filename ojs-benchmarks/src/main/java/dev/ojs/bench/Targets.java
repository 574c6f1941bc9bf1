package dev.ojs.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark issue's targets, judged against the results of one invocation (the median
 * of each scenario when it ran several times). A target whose scenarios did not run is not
 * judged. The verdicts are printed, never asserted: the figures depend on the machine.
 * <ul>
 * <li>drain ≥ 20,000 jobs/s;</li>
 * <li>steady state ≥ 15,000 jobs/s;</li>
 * <li>idle latency p50 &lt; 10 ms and p99 &lt; 50 ms;</li>
 * <li>retry path ≥ 50% of the drain rate;</li>
 * <li>a 1M backlog within 20% of a 10k one (not slower than 0.8×);</li>
 * <li>a workflow step's CPU (JVM and database) at most 1.5× a plain job's, for every kind of
 * workflow measured.</li>
 * </ul>
 */
public final class Targets {

	/** One judged target: what was measured against what, and whether it was met. */
	public record Verdict(String target, String measured, boolean met) {
	}

	private static final double STEADY_TARGET = 15_000;

	private Targets() {
	}

	/**
	 * Judges the targets whose scenarios ran.
	 * @param results the result (or median) of each scenario that ran, by scenario name
	 * @return the verdicts, in the order
	 */
	public static List<Verdict> judge(Map<String, ScenarioResult> results) {
		List<Verdict> verdicts = new ArrayList<>();
		ScenarioResult drain = results.get("drain");
		if (drain != null) {
			verdicts.add(atLeast("drain ≥ 20,000 jobs/s", drain.jobsPerSecond(), 20_000));
		}
		ScenarioResult steady = results.get("steady");
		if (steady != null) {
			verdicts.add(steady(steady));
		}
		ScenarioResult idle = results.get("idle");
		if (idle != null) {
			double p50 = idle.latency().p50();
			double p99 = idle.latency().p99();
			verdicts.add(new Verdict("idle p50 < 10 ms and p99 < 50 ms",
					"p50 " + figure(p50, 2) + " ms, p99 " + figure(p99, 2) + " ms", p50 < 10 && p99 < 50));
		}
		ScenarioResult retry = results.get("retry");
		if (retry != null && drain != null) {
			double ratio = retry.jobsPerSecond() / drain.jobsPerSecond();
			verdicts.add(new Verdict("retry ≥ 50% of drain", figure(retry.jobsPerSecond(), 0) + " jobs/s = "
					+ figure(100 * ratio, 0) + "% of " + figure(drain.jobsPerSecond(), 0), ratio >= 0.5));
		}
		ScenarioResult backlog = results.get("backlog");
		if (backlog != null) {
			double ratio = backlog.extra().getOrDefault("large_to_small", Double.NaN);
			verdicts.add(new Verdict("1M backlog within 20% of 10k", figure(backlog.jobsPerSecond(), 0)
					+ " jobs/s = " + figure(ratio, 2) + "× the 10k rate", ratio >= 0.8));
		}
		ScenarioResult workflow = results.get("workflow");
		if (workflow != null) {
			double ratio = workflow.extra().getOrDefault("cpu_ratio_max", Double.NaN);
			verdicts.add(new Verdict("workflow step CPU ≤ 1.5× a plain job's",
					"at most " + figure(ratio, 2) + "× (groups, batches, chains)", ratio <= 1.5));
		}
		return verdicts;
	}

	/** Prints the verdicts as a table and a {@code TARGETS met=… missed=…} line; nothing when none. */
	public static void print(List<Verdict> verdicts, PrintStream out) {
		if (verdicts.isEmpty()) {
			return;
		}
		ResultTable table = new ResultTable("targets of the benchmark issue (figures depend on the machine)",
				"target", "measured", "verdict");
		verdicts.forEach((verdict) -> table.row(verdict.target(), verdict.measured(), verdict.met() ? "met" : "MISSED"));
		out.println();
		table.print(out);
		long met = verdicts.stream().filter(Verdict::met).count();
		out.println("TARGETS met=" + met + " missed=" + (verdicts.size() - met));
	}

	/**
	 * Steady state ≥ 15,000 jobs/s. A throttled run completes at most what it is offered, so
	 * a run offered the target rate (enqueues at 99% of it or more, the throttle's accuracy)
	 * meets it by keeping up: completing at least 99% of the jobs enqueued per second. A run
	 * offered clearly more (over 1% above the target), or unthrottled, therefore has to
	 * complete the target rate itself. With {@code --runs}, completed and enqueued rates are
	 * medians taken figure by figure.
	 */
	private static Verdict steady(ScenarioResult steady) {
		double completed = steady.jobsPerSecond();
		double enqueued = steady.extra().getOrDefault("enqueued_per_sec", Double.NaN);
		boolean keptUpWithTheTarget = enqueued >= 0.99 * STEADY_TARGET && completed >= 0.99 * enqueued;
		String measured = figure(completed, 0) + " jobs/s";
		if (!Double.isNaN(enqueued)) {
			measured += " of " + figure(enqueued, 0) + " enqueued/s, backlog "
					+ figure(steady.extra().getOrDefault("backlog_at_end", Double.NaN), 0) + " at the end";
		}
		return new Verdict("steady ≥ 15,000 jobs/s", measured, completed >= STEADY_TARGET || keptUpWithTheTarget);
	}

	private static Verdict atLeast(String target, double jobsPerSecond, double minimum) {
		return new Verdict(target, figure(jobsPerSecond, 0) + " jobs/s", jobsPerSecond >= minimum);
	}

	private static String figure(double value, int decimals) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
	}

}

package dev.ojs.bench.scenario;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;

/**
 * A queue with a concurrency limit on all nodes reaches the throughput its limit allows: two
 * worker nodes with 32 slots each drain jobs that each run a fixed time from a queue limited to
 * fewer; the limit allows {@code limit / run} jobs a second, and the figure is the rate reached as
 * a fraction of it. The jobs running at once, counted by their handlers on both nodes, never
 * exceed the limit (the scenario fails otherwise).
 * Two cases: a small limit with longer jobs, where the wake-up of a freed slot dominates, and a
 * larger limit with short jobs, where the claims' turns on the queue's row do. Each is compared
 * with the same number of slots without a limit (two nodes of half the limit's slots each, the
 * queue unlimited): the rate this machine reaches with that many jobs running at once.
 */
final class LimitedQueueScenario implements Scenario {

	private static final long POLL_MILLIS = 10;

	private static final int NODE_SLOTS = 32;

	@Override
	public String name() {
		return "limited";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		boolean smoke = options.smoke();
		Case small = new Case(10, 20, smoke ? 100 : 5_000);
		Case large = new Case(24, 2, smoke ? 200 : 40_000);
		ResultTable table = new ResultTable(
				"limited: two nodes of " + NODE_SLOTS + " slots each on a queue limited on all nodes together",
				"limit", "job ms", "jobs", "seconds", "jobs/s", "allowed jobs/s", "of allowed", "same slots, no limit",
				"of that", "max active");
		ScenarioResult result = null;
		for (Case limited : List.of(small, large)) {
			Measured measured = run(environment, limited, true);
			Measured slots = run(environment, limited, false);
			table.row(limited.limit(), limited.jobMillis(), limited.jobs(), measured.seconds(), measured.rate(),
					limited.allowed(), String.format("%.1f%%", 100 * measured.rate() / limited.allowed()), slots.rate(),
					String.format("%.1f%%", 100 * measured.rate() / slots.rate()), measured.maxActive());
			String key = "limit" + limited.limit() + "_";
			result = (result != null) ? result : new ScenarioResult(name(), limited.jobs(), measured.seconds(),
					LatencySummary.EMPTY);
			result = result.with(key + "jobs_per_sec", measured.rate())
				.with(key + "of_allowed", measured.rate() / limited.allowed())
				.with(key + "of_same_slots", measured.rate() / slots.rate())
				.with(key + "max_active", measured.maxActive());
		}
		table.print(environment.out());
		return result;
	}

	/** A queue limited to {@code limit}, and jobs that each run {@code jobMillis}. */
	private record Case(int limit, long jobMillis, int jobs) {

		double allowed() {
			return this.limit * 1000.0 / this.jobMillis;
		}

	}

	private record Measured(double seconds, double rate, long maxActive) {
	}

	/**
	 * Two nodes drain the case's jobs: of {@value #NODE_SLOTS} slots each on the queue limited to
	 * the case's limit, or ({@code onQueue} false) of half the limit's slots each on an unlimited queue.
	 */
	private Measured run(BenchEnvironment environment, Case limited, boolean onQueue) throws Exception {
		String prefix = environment.newPrefix();
		Map<String, Object> properties = onQueue
				? Map.of("ojs.worker.concurrency", NODE_SLOTS, "ojs.queues.default.concurrency", limited.limit())
				: Map.of("ojs.worker.concurrency", limited.limit() / 2);
		BenchEnvironment.Node first = environment.start(prefix, true, properties);
		BenchEnvironment.Node second = environment.start(prefix, true, properties);
		BenchJobs.resetMostSleeping();
		long start = System.nanoTime();
		first.template()
			.enqueueAll(BenchJobs.SLEEP, Collections.nCopies(limited.jobs(),
					List.of(LatencyRecorder.nowMicros(), limited.jobMillis())), JobOptions.none());
		long deadline = start + environment.options().timeout().toNanos();
		// completions and running jobs counted by the nodes: a count of the table would load the database it measures
		while (first.probe().completed() + second.probe().completed() < limited.jobs()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("limited jobs did not complete within " + environment.options().timeout());
			}
			Thread.sleep(POLL_MILLIS);
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		long maxActive = BenchJobs.mostSleeping();
		environment.stop(second);
		environment.stop(first);
		if (onQueue && maxActive > limited.limit()) {
			throw new IllegalStateException(maxActive + " jobs ran at once on a queue limited to " + limited.limit());
		}
		return new Measured(seconds, limited.jobs() / seconds, maxActive);
	}

}

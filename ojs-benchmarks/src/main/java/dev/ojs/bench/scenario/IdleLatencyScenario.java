package dev.ojs.bench.scenario;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.OjsTemplate;

/**
 * Idle latency: one job at a time into an idle worker node (its poll interval is a
 * second), enqueued on the node itself (its store wakes the poller as the insert commits)
 * and then on an enqueue-only node beside it (only PostgreSQL LISTEN/NOTIFY wakes the
 * poller then). Between jobs the node waits a random pause around {@code --idle-pause}
 * after the previous completion. The result line is the node's own; {@code other_*} are the
 * other node's.
 */
final class IdleLatencyScenario implements Scenario {

	private static final int WARMUP = 5;

	@Override
	public String name() {
		return "idle";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node node = environment.start(prefix, true, Map.of());
		BenchEnvironment.Node other = environment.restart(prefix, false);
		JobProbe probe = node.probe();
		Measured own = measure(options, node.template(), probe);
		Measured others = measure(options, other.template(), probe);
		environment.stop(other);
		environment.stop(node);
		ScenarioResult result = new ScenarioResult(name(), options.idleJobs(), own.seconds(), own.latency())
			.with("poll_interval_ms", options.pollInterval().toMillis())
			.with("enqueue_p50_ms", own.enqueue().p50())
			.with("enqueue_p99_ms", own.enqueue().p99())
			.with("other_p50_ms", others.latency().p50())
			.with("other_p99_ms", others.latency().p99());
		ResultTable table = new ResultTable("idle: one job at a time into an idle worker (latency = enqueue to handler"
				+ " start; enqueue = the enqueue call itself, its insert, notification and commit)", "enqueued on",
				"jobs", "pause ms", "poll interval ms", "p50 ms", "p95 ms", "p99 ms", "max ms", "mean ms",
				"enqueue p50 ms", "enqueue p99 ms");
		row(table, "the worker's node", options, own);
		row(table, "another node", options, others);
		table.print(environment.out());
		return result;
	}

	private record Measured(LatencySummary latency, LatencySummary enqueue, double seconds) {
	}

	private static Measured measure(BenchmarkOptions options, OjsTemplate template, JobProbe probe)
			throws InterruptedException {
		oneAtATime(options, template, probe, WARMUP, new LatencyRecorder());
		probe.latencies().clear();
		probe.recording(true);
		LatencyRecorder enqueues = new LatencyRecorder();
		long start = System.nanoTime();
		oneAtATime(options, template, probe, options.idleJobs(), enqueues);
		double seconds = (System.nanoTime() - start) / 1e9;
		probe.recording(false);
		return new Measured(probe.latencies().summary(), enqueues.summary(), seconds);
	}

	private static void row(ResultTable table, String enqueuedOn, BenchmarkOptions options, Measured measured) {
		LatencySummary latency = measured.latency();
		table.row(enqueuedOn, options.idleJobs(), options.idlePause().toMillis(), options.pollInterval().toMillis(),
				latency.p50(), latency.p95(), latency.p99(), latency.max(), latency.mean(), measured.enqueue().p50(),
				measured.enqueue().p99());
	}

	private static void oneAtATime(BenchmarkOptions options, OjsTemplate template, JobProbe probe, int jobs,
			LatencyRecorder enqueues) throws InterruptedException {
		long pauseMillis = options.idlePause().toMillis();
		for (int i = 0; i < jobs; i++) {
			Thread.sleep(pauseMillis / 2 + ThreadLocalRandom.current().nextLong(pauseMillis + 1));
			long completed = probe.completed();
			long enqueuedAt = LatencyRecorder.nowMicros();
			template.enqueue(BenchJobs.NOOP, enqueuedAt);
			enqueues.recordSince(enqueuedAt);
			probe.await(probe::completed, completed + 1, options.timeout(), "an idle job to complete");
		}
	}

}

package dev.ojs.bench.scenario;

import java.util.concurrent.ThreadLocalRandom;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.OjsTemplate;

/**
 * Idle latency: one job at a time into an idle worker node (its poll interval is a
 * second, so a fast start needs PostgreSQL LISTEN/NOTIFY). Between jobs the node waits a
 * random pause around {@code --idle-pause} after the previous completion.
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
		BenchEnvironment.Node node = environment.start(true);
		OjsTemplate template = node.template();
		JobProbe probe = node.probe();
		oneAtATime(options, template, probe, WARMUP, new LatencyRecorder());
		probe.latencies().clear();
		probe.recording(true);
		LatencyRecorder enqueues = new LatencyRecorder();
		long start = System.nanoTime();
		oneAtATime(options, template, probe, options.idleJobs(), enqueues);
		double seconds = (System.nanoTime() - start) / 1e9;
		probe.recording(false);
		environment.stop(node);
		LatencySummary latency = probe.latencies().summary();
		LatencySummary enqueue = enqueues.summary();
		ScenarioResult result = new ScenarioResult(name(), options.idleJobs(), seconds, latency)
			.with("poll_interval_ms", options.pollInterval().toMillis())
			.with("enqueue_p50_ms", enqueue.p50())
			.with("enqueue_p99_ms", enqueue.p99());
		new ResultTable("idle: one job at a time into an idle worker (latency = enqueue to handler start; enqueue ="
				+ " the enqueue call itself, its insert, notification and commit)", "jobs", "pause ms",
				"poll interval ms", "p50 ms", "p95 ms", "p99 ms", "max ms", "mean ms", "enqueue p50 ms",
				"enqueue p99 ms")
			.row(options.idleJobs(), options.idlePause().toMillis(), options.pollInterval().toMillis(), latency.p50(),
					latency.p95(), latency.p99(), latency.max(), latency.mean(), enqueue.p50(), enqueue.p99())
			.print(environment.out());
		return result;
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

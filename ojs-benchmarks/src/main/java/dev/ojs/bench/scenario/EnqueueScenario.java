package dev.ojs.bench.scenario;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

/**
 * Enqueue throughput on an enqueue-only node: one job per {@link OjsTemplate#enqueue} call
 * (each its own transaction), or {@code --batch-size} jobs per
 * {@link OjsTemplate#enqueueAll} call. Latency is per call.
 */
final class EnqueueScenario implements Scenario {

	private final boolean batch;

	EnqueueScenario(boolean batch) {
		this.batch = batch;
	}

	@Override
	public String name() {
		return this.batch ? "enqueue-batch" : "enqueue-single";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		BenchEnvironment.Node node = environment.start(false);
		OjsTemplate template = node.template();
		int jobs = this.batch ? options.enqueueBatchJobs() : options.enqueueJobs();
		int perCall = this.batch ? options.batchSize() : 1;
		enqueue(template, warmupJobs(jobs), perCall, 1, new LatencyRecorder());
		LatencyRecorder calls = new LatencyRecorder();
		long start = System.nanoTime();
		CpuUsage cpuStart = CpuUsage.now();
		enqueue(template, jobs, perCall, options.enqueueThreads(), calls);
		CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
		double seconds = (System.nanoTime() - start) / 1e9;
		LatencySummary latency = calls.summary();
		ScenarioResult result = new ScenarioResult(name(), jobs, seconds, latency).with("jobs_per_call", perCall)
			.with("threads", options.enqueueThreads())
			.with("java_us_per_job", cpu.javaMicrosPer(jobs))
			.with("pg_us_per_job", cpu.postgresMicrosPer(jobs));
		new ResultTable(name() + ": enqueue throughput (latency per call)", "mode", "jobs/call", "threads", "jobs",
				"seconds", "jobs/s", "p50 ms", "p95 ms", "p99 ms", "java µs/job", "pg µs/job")
			.row(this.batch ? "enqueueAll" : "enqueue", perCall, options.enqueueThreads(), jobs, seconds,
					result.jobsPerSecond(), latency.p50(), latency.p95(), latency.p99(), cpu.javaMicrosPer(jobs),
					cpu.postgresMicrosPer(jobs))
			.print(environment.out());
		environment.stop(node);
		return result;
	}

	/** Jobs enqueued before the measurement (JIT, connection pool, statement cache); the peers warm up alike. */
	static int warmupJobs(int jobs) {
		return Math.min(jobs / 2, 20_000);
	}

	private static void enqueue(OjsTemplate template, int jobs, int perCall, int threads, LatencyRecorder calls)
			throws Exception {
		Batches.run(threads, jobs, perCall, (from, size) -> {
			long start = LatencyRecorder.nowMicros();
			if (perCall == 1) {
				template.enqueue(BenchJobs.NOOP, start);
			}
			else {
				template.enqueueAll(BenchJobs.NOOP, Preloader.argsBatch(size, start), JobOptions.none());
			}
			calls.recordSince(start);
		});
	}

}

package dev.ojs.bench.scenario;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;

/**
 * Backlog scaling: a worker node processes no-op jobs while the queue holds a small and
 * then a large backlog. Each backlog is pre-inserted, then held at its size by a refill
 * thread (one {@code enqueueAll} of 1,000 whenever that many were completed), so both
 * measurements see the same backlog from start to end; completions per second over the
 * same window are compared. A claim that does not use its index slows down with the
 * backlog.
 */
final class BacklogScenario implements Scenario {

	private static final int REFILL_BATCH = 1_000;

	@Override
	public String name() {
		return "backlog";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		Round small = measure(environment, options.backlogSmall());
		Round large = measure(environment, options.backlogLarge());
		double ratio = large.rate() / small.rate();
		new ResultTable("backlog: no-op jobs processed for " + options.backlogDuration().toSeconds()
				+ " s while the backlog is held at its size", "backlog", "preload s", "completed", "jobs/s", "vs small",
				"java cpu%", "pg cpu%", "machine cpu%")
			.row(options.backlogSmall(), small.preload(), small.completed(), small.rate(), 1.0, small.cpu().java(),
					small.cpu().postgres(), small.cpu().machine())
			.row(options.backlogLarge(), large.preload(), large.completed(), large.rate(), ratio, large.cpu().java(),
					large.cpu().postgres(), large.cpu().machine())
			.print(environment.out());
		return new ScenarioResult(name(), large.completed(), large.seconds(), LatencySummary.EMPTY)
			.with("small_jobs_per_sec", small.rate())
			.with("large_to_small", ratio)
			.with("backlog_small", options.backlogSmall())
			.with("backlog_large", options.backlogLarge());
	}

	private Round measure(BenchEnvironment environment, int backlog) throws Exception {
		BenchmarkOptions options = environment.options();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node producer = environment.start(prefix, false, Map.of());
		double preload = Preloader.enqueue(producer.template(), BenchJobs.NOOP, backlog, JobOptions.none(),
				environment.out());
		environment.checkpoint();
		BenchEnvironment.Node worker = environment.restart(prefix, true);
		JobProbe probe = worker.probe();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread refill = new Thread(() -> {
			long enqueued = backlog;
			try {
				while (running.get()) {
					if (enqueued - probe.completed() <= backlog - REFILL_BATCH) {
						producer.template()
							.enqueueAll(BenchJobs.NOOP, Preloader.argsBatch(REFILL_BATCH, LatencyRecorder.nowMicros()),
									JobOptions.none());
						enqueued += REFILL_BATCH;
					}
					else {
						LockSupport.parkNanos(200_000);
					}
				}
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		}, "bench-refill");
		refill.start();
		try {
			SteadyStateScenario.sleep(options.steadyWarmup().toNanos(), failure);
			long before = probe.completed();
			CpuUsage cpuStart = CpuUsage.now();
			long start = System.nanoTime();
			SteadyStateScenario.sleep(options.backlogDuration().toNanos(), failure);
			long completed = probe.completed() - before;
			double seconds = (System.nanoTime() - start) / 1e9;
			CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
			return new Round(preload, completed, seconds, completed / seconds, cpu);
		}
		finally {
			running.set(false);
			refill.join();
			environment.stop(worker);
			environment.stop(producer);
			environment.drop(prefix);
		}
	}

	private record Round(double preload, long completed, double seconds, double rate, CpuUsage.Split cpu) {

	}

}

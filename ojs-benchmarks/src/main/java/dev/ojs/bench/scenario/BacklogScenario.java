package dev.ojs.bench.scenario;

import java.util.Map;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;

/**
 * Backlog scaling: the same number of jobs ({@code --backlog-sample}) is processed from a
 * small and from a large pre-inserted backlog; a claim that does not use its index slows
 * down with the backlog. A first, unreported round on the small backlog warms the JVM.
 */
final class BacklogScenario implements Scenario {

	@Override
	public String name() {
		return "backlog";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int sample = options.backlogSample();
		measure(environment, options.backlogSmall(), sample);
		Round small = measure(environment, options.backlogSmall(), sample);
		Round large = measure(environment, options.backlogLarge(), sample);
		double ratio = large.rate() / small.rate();
		new ResultTable("backlog: " + sample + " jobs processed from a pre-inserted backlog", "backlog", "jobs timed",
				"preload s", "seconds", "jobs/s", "vs small", "java cpu%", "pg cpu%", "machine cpu%")
			.row(options.backlogSmall(), sample, small.preload(), small.seconds(), small.rate(), 1.0, small.cpu().java(),
					small.cpu().postgres(), small.cpu().machine())
			.row(options.backlogLarge(), sample, large.preload(), large.seconds(), large.rate(), ratio, large.cpu().java(),
					large.cpu().postgres(), large.cpu().machine())
			.print(environment.out());
		return new ScenarioResult(name(), sample, large.seconds(), LatencySummary.EMPTY)
			.with("small_jobs_per_sec", small.rate())
			.with("large_to_small", ratio)
			.with("backlog_small", options.backlogSmall())
			.with("backlog_large", options.backlogLarge());
	}

	private Round measure(BenchEnvironment environment, int backlog, int sample) throws Exception {
		String prefix = environment.newPrefix();
		BenchEnvironment.Node producer = environment.start(prefix, false, Map.of());
		double preload = Preloader.enqueue(producer.template(), BenchJobs.NOOP, backlog, JobOptions.none(),
				environment.out());
		environment.stop(producer);
		BenchEnvironment.Node worker = environment.restart(prefix, true);
		CpuUsage cpuStart = CpuUsage.now();
		JobProbe probe = worker.probe();
		long end = probe.await(probe::completed, sample, environment.options().timeout(), "completions");
		double seconds = (end - probe.firstStartNanos()) / 1e9;
		CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
		environment.stop(worker);
		environment.drop(prefix);
		return new Round(preload, seconds, sample / seconds, cpu);
	}

	private record Round(double preload, double seconds, double rate, CpuUsage.Split cpu) {

	}

}

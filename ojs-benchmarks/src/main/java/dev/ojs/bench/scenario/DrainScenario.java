package dev.ojs.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WalUsage;
import dev.ojs.spring.JobOptions;

/**
 * Drain: jobs are pre-inserted by an enqueue-only node, then a worker node starts and the
 * time from its first handler start until the worker has stored the last completion is
 * measured. The retry path does the same with a handler that fails every job's first
 * attempt (backoff {@code PT0.001S}, no jitter), so each job runs twice.
 */
final class DrainScenario implements Scenario {

	private final boolean retry;

	DrainScenario(boolean retry) {
		this.retry = retry;
	}

	@Override
	public String name() {
		return this.retry ? "retry" : "drain";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int jobs = this.retry ? options.retryJobs() : options.drainJobs();
		String type = this.retry ? BenchJobs.FAIL_ONCE : BenchJobs.NOOP;
		JobOptions jobOptions = JobOptions.none();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node producer = environment.start(prefix, false, Map.of());
		if (options.scheduledAhead() > 0) {
			// delayed jobs the claims pass over; never due during the run
			Preloader.enqueue(producer.template(), type, options.scheduledAhead(),
					JobOptions.builder().runAt(java.time.Instant.now().plus(java.time.Duration.ofDays(1))).build(),
					environment.out());
		}
		double preload = Preloader.enqueue(producer.template(), type, jobs, jobOptions, environment.out());
		environment.stop(producer);
		environment.checkpoint();
		// before the worker starts: it claims while its context starts
		WalUsage walStart = environment.walUsage();
		long boot = System.nanoTime();
		BenchEnvironment.Node worker = environment.restart(prefix, true);
		double startup = (System.nanoTime() - boot) / 1e9;
		CpuUsage cpuStart = CpuUsage.now();
		JobProbe probe = worker.probe();
		// the first --cold-jobs completions are the cold rate (this worker's code not yet compiled), the rest the warm one
		int cold = Math.min(options.coldJobs(), jobs);
		long coldEnd = probe.await(probe::completed, cold, options.timeout(), "completions");
		CpuUsage cpuCold = CpuUsage.now();
		long end = probe.await(probe::completed, jobs, options.timeout(), "completions");
		CpuUsage cpuEnd = CpuUsage.now();
		CpuUsage.Split cpu = cpuEnd.since(cpuStart);
		CpuUsage firstStart = probe.firstStartCpu();
		ColdWarm coldWarm = new ColdWarm(cold, (coldEnd - probe.firstStartNanos()) / 1e9,
				cpuCold.since((firstStart != null) ? firstStart : cpuStart),
				jobs - cold, (end - coldEnd) / 1e9, cpuEnd.since(cpuCold));
		WalUsage walEnd = environment.walUsage();
		WalUsage wal = WalUsage.between(walStart, walEnd);
		double seconds = (end - probe.firstStartNanos()) / 1e9;
		long executions = probe.started();
		long retries = probe.retrying();
		environment.stop(worker);
		ClaimCost claim = ClaimCost.measure(options.jdbcUrl(), prefix + "jobs", type, options.concurrency());
		environment.out().println("claim's due selection after the drain, " + options.scheduledAhead()
				+ " jobs scheduled ahead, with statistics:" + System.lineSeparator() + claim.plan());
		ScenarioResult result = new ScenarioResult(name(), jobs, seconds, LatencySummary.EMPTY)
			.with("executions_per_sec", executions / seconds)
			.with("concurrency", options.concurrency())
			.with("scheduled_ahead", options.scheduledAhead())
			.with("claim_ms", claim.millis())
			.with("claim_buffers", claim.buffers())
			.with("claim_ms_analyzed", claim.analyzedMillis())
			.with("claim_buffers_analyzed", claim.analyzedBuffers())
			.with("java_cpu_pct", cpu.java())
			.with("pg_cpu_pct", cpu.postgres())
			.with("machine_cpu_pct", cpu.machine())
			.with("java_us_per_job", cpu.javaMicrosPer(jobs))
			.with("pg_us_per_job", cpu.postgresMicrosPer(jobs));
		result = coldWarm.addTo(result.with("jvm_runs_before", environment.runsBefore()));
		result = WalUsage.addTo(result, wal, jobs);
		List<Object> row = new ArrayList<>(List.of(jobs, executions, retries, options.concurrency(), preload, startup,
				seconds, result.jobsPerSecond(), executions / seconds, cpu.java(), cpu.postgres(), cpu.machine(),
				cpu.javaMicrosPer(jobs), cpu.postgresMicrosPer(jobs), claim.millis(), claim.analyzedMillis()));
		row.addAll(WalUsage.cells(wal, jobs));
		List<String> headers = new ArrayList<>(List.of("jobs", "executions", "retries", "concurrency", "preload s",
				"worker start s", "drain s", "jobs/s", "executions/s", "java cpu%", "pg cpu%", "machine cpu%",
				"java µs/job", "pg µs/job", "claim ms", "claim ms analyzed"));
		headers.addAll(WalUsage.HEADERS);
		new ResultTable(name() + ": " + (this.retry ? "every job fails once, then succeeds" : "no-op jobs")
				+ ", pre-inserted then drained by one worker node", headers.toArray(String[]::new))
			.row(row.toArray())
			.print(environment.out());
		coldWarm.table(name() + ": the first " + cold + " completions (cold) and the rest (warm); "
				+ ((environment.runsBefore() == 0) ? "a fresh JVM"
						: "this JVM ran " + environment.runsBefore() + " scenario run(s) before"))
			.print(environment.out());
		return result;
	}

}

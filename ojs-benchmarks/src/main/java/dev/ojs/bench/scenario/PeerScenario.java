package dev.ojs.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WalUsage;
import dev.ojs.bench.peer.Peer;
import dev.ojs.bench.peer.PeerProbe;

/**
 * A scenario run by a peer ({@link Peer}) with the same sizes and measurements as the
 * starter's: {@code enqueue-batch} (batches of {@code --batch-size} through the peer's batch
 * API), {@code drain} and {@code retry} (pre-inserted jobs, from the first handler start until
 * the peer has stored the last outcome), and {@code steady} (producers at {@code --rate}
 * beside the peer's worker). Results are named {@code <peer>:<scenario>}.
 */
public final class PeerScenario implements Scenario {

	private final String peer;

	private final String scenario;

	public PeerScenario(String peer, String scenario) {
		if (!Peer.SCENARIOS.contains(scenario)) {
			throw new IllegalArgumentException("Peers do not run the " + scenario + " scenario");
		}
		this.peer = peer;
		this.scenario = scenario;
	}

	@Override
	public String name() {
		return this.peer + ":" + this.scenario;
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		try (Peer peer = Peer.create(this.peer, environment.options(), environment.newPrefix())) {
			environment.out().println(peer.configuration());
			return switch (this.scenario) {
				case "enqueue-batch" -> enqueue(peer, environment);
				case "drain" -> drain(peer, environment, false);
				case "retry" -> drain(peer, environment, true);
				default -> steady(peer, environment);
			};
		}
	}

	/** Whether a peer runs a scenario at all. */
	public static boolean runs(String peer, String scenario) {
		return Peer.SCENARIOS.contains(scenario) && !(scenario.equals("retry") && peer.equals("jobrunr"));
	}

	private ScenarioResult enqueue(Peer peer, BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int jobs = options.enqueueBatchJobs();
		int perCall = options.batchSize();
		Batches.run(1, EnqueueScenario.warmupJobs(jobs), perCall,
				(from, size) -> peer.enqueueBatch(LatencyRecorder.nowMicros(), size, false));
		LatencyRecorder calls = new LatencyRecorder();
		long start = System.nanoTime();
		CpuUsage cpuStart = CpuUsage.now();
		Batches.run(options.enqueueThreads(), jobs, perCall, (from, size) -> {
			long callStart = LatencyRecorder.nowMicros();
			peer.enqueueBatch(callStart, size, false);
			calls.recordSince(callStart);
		});
		CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
		double seconds = (System.nanoTime() - start) / 1e9;
		LatencySummary latency = calls.summary();
		ScenarioResult result = new ScenarioResult(name(), jobs, seconds, latency).with("jobs_per_call", perCall)
			.with("threads", options.enqueueThreads())
			.with("java_us_per_job", cpu.javaMicrosPer(jobs))
			.with("pg_us_per_job", cpu.postgresMicrosPer(jobs));
		new ResultTable(name() + ": enqueue throughput (latency per call)", "jobs/call", "threads", "jobs", "seconds",
				"jobs/s", "p50 ms", "p99 ms", "java µs/job", "pg µs/job")
			.row(perCall, options.enqueueThreads(), jobs, seconds, result.jobsPerSecond(), latency.p50(), latency.p99(),
					cpu.javaMicrosPer(jobs), cpu.postgresMicrosPer(jobs))
			.print(environment.out());
		return result;
	}

	private ScenarioResult drain(Peer peer, BenchEnvironment environment, boolean retry) throws Exception {
		BenchmarkOptions options = environment.options();
		int jobs = retry ? options.retryJobs() : options.drainJobs();
		long preloadStart = System.nanoTime();
		Batches.run(2, jobs, 1_000, (from, size) -> peer.enqueueBatch(LatencyRecorder.nowMicros(), size, retry));
		double preload = (System.nanoTime() - preloadStart) / 1e9;
		environment.checkpoint();
		WalUsage walStart = environment.walUsage();
		PeerProbe probe = new PeerProbe();
		long boot = System.nanoTime();
		peer.startWorker(probe);
		double startup = (System.nanoTime() - boot) / 1e9;
		CpuUsage cpuStart = CpuUsage.now();
		long executions = retry ? 2L * jobs : jobs;
		long deadline = System.nanoTime() + options.timeout().toNanos();
		awaitAtLeast(probe::started, executions, deadline, "handler starts");
		long end = awaitAtLeast(peer::finished, jobs, deadline, "stored outcomes");
		CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
		WalUsage walEnd = environment.walUsage();
		double seconds = (end - probe.firstStartNanos()) / 1e9;
		ScenarioResult result = new ScenarioResult(name(), jobs, seconds, LatencySummary.EMPTY)
			.with("executions_per_sec", probe.started() / seconds)
			.with("concurrency", options.concurrency())
			.with("java_cpu_pct", cpu.java())
			.with("pg_cpu_pct", cpu.postgres())
			.with("machine_cpu_pct", cpu.machine())
			.with("java_us_per_job", cpu.javaMicrosPer(jobs))
			.with("pg_us_per_job", cpu.postgresMicrosPer(jobs));
		WalUsage wal = WalUsage.between(walStart, walEnd);
		if (wal != null) {
			result = result.with("wal_bytes_per_job", (double) wal.walBytes() / jobs);
		}
		new ResultTable(name() + ": " + (retry ? "every job fails once, then succeeds" : "no-op jobs")
				+ ", pre-inserted then drained", "jobs", "executions", "preload s", "worker start s", "drain s", "jobs/s",
				"java cpu%", "pg cpu%", "machine cpu%", "java µs/job", "pg µs/job")
			.row(jobs, probe.started(), preload, startup, seconds, result.jobsPerSecond(), cpu.java(), cpu.postgres(),
					cpu.machine(), cpu.javaMicrosPer(jobs), cpu.postgresMicrosPer(jobs))
			.print(environment.out());
		return result;
	}

	private ScenarioResult steady(Peer peer, BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		PeerProbe probe = new PeerProbe();
		peer.startWorker(probe);
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong enqueued = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < options.producers(); p++) {
			Thread producer = new Thread(() -> produce(peer, options, running, enqueued, failure), "bench-producer-" + p);
			producer.start();
			producers.add(producer);
		}
		try {
			SteadyStateScenario.sleep(options.steadyWarmup().toNanos(), failure);
			probe.latencies().clear();
			probe.recording(true);
			long finishedBefore = peer.finished();
			long enqueuedBefore = enqueued.get();
			long start = System.nanoTime();
			CpuUsage cpuStart = CpuUsage.now();
			SteadyStateScenario.sleep(options.steadyDuration().toNanos(), failure);
			CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
			long finished = peer.finished();
			double seconds = (System.nanoTime() - start) / 1e9;
			probe.recording(false);
			long completed = finished - finishedBefore;
			long offered = enqueued.get() - enqueuedBefore;
			LatencySummary latency = probe.latencies().summary();
			ScenarioResult result = new ScenarioResult(name(), completed, seconds, latency)
				.with("enqueued_per_sec", offered / seconds)
				.with("backlog_at_end", enqueued.get() - finished)
				.with("offered_rate", options.rate())
				.with("concurrency", options.concurrency())
				.with("java_cpu_pct", cpu.java())
				.with("pg_cpu_pct", cpu.postgres())
				.with("machine_cpu_pct", cpu.machine())
				.with("java_us_per_job", cpu.javaMicrosPer(completed))
				.with("pg_us_per_job", cpu.postgresMicrosPer(completed));
			new ResultTable(name() + ": producers and worker together (latency = enqueue to handler start)",
					"offered/s", "enqueued/s", "completed/s", "backlog at end", "p50 ms", "p99 ms", "java cpu%",
					"pg cpu%", "java µs/job", "pg µs/job")
				.row((options.rate() > 0) ? String.valueOf(options.rate()) : "unthrottled", offered / seconds,
						result.jobsPerSecond(), enqueued.get() - finished, latency.p50(), latency.p99(), cpu.java(),
						cpu.postgres(), cpu.javaMicrosPer(completed), cpu.postgresMicrosPer(completed))
				.print(environment.out());
			return result;
		}
		finally {
			running.set(false);
			for (Thread producer : producers) {
				producer.join();
			}
		}
	}

	private static void produce(Peer peer, BenchmarkOptions options, AtomicBoolean running, AtomicLong enqueued,
			AtomicReference<Throwable> failure) {
		int batch = options.batchSize();
		long intervalNanos = (options.rate() > 0) ? (long) (1e9 * batch * options.producers() / options.rate()) : 0;
		long next = System.nanoTime();
		try {
			while (running.get()) {
				peer.enqueueBatch(LatencyRecorder.nowMicros(), batch, false);
				enqueued.addAndGet(batch);
				if (intervalNanos > 0) {
					next = Math.max(next + intervalNanos, System.nanoTime() - 1_000_000_000L);
					LockSupport.parkNanos(next - System.nanoTime());
				}
			}
		}
		catch (Throwable ex) {
			failure.compareAndSet(null, ex);
		}
	}

	/** A count read from the peer (a database query or a counter). */
	interface Count {

		long get() throws Exception;

	}

	/** Polls every 5 ms until {@code count} reaches {@code target}; returns {@link System#nanoTime()} then. */
	private static long awaitAtLeast(Count count, long target, long deadline, String what) throws Exception {
		long seen;
		while ((seen = count.get()) < target) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Timed out waiting for " + what + ": " + seen + " of " + target);
			}
			LockSupport.parkNanos(5_000_000);
		}
		return System.nanoTime();
	}

}

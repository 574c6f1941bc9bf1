package dev.ojs.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.WalUsage;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

/**
 * Steady state: producer threads offer jobs at a fixed total rate (batches of
 * {@code --batch-size} through {@code enqueueAll}) while the worker in the same node runs
 * them. After a warm-up, completions per second and the enqueue-to-start latency of jobs
 * started in the measured window are taken. A worker that cannot keep up shows as a
 * growing backlog and latency. With {@code --steady-backlog} the producers hold the jobs waiting
 * to that bound, so unthrottled producers and the worker settle where as many jobs are enqueued as
 * completed: the rate the node sustains while it enqueues too, like the {@code limit} cycle.
 */
final class SteadyStateScenario implements Scenario {

	/** How long a producer waits before it looks again at a backlog at its bound. */
	private static final long FULL_PAUSE_NANOS = 200_000;

	@Override
	public String name() {
		return "steady";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node node = environment.start(prefix, true, java.util.Map.of());
		OjsTemplate template = node.template();
		JobProbe probe = node.probe();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong enqueued = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < options.producers(); p++) {
			Thread producer = new Thread(
					() -> produce(template, options.batchSize(), options.producers(), options.rate(),
							backlogBound(options.steadyBacklog(), enqueued, probe), running, enqueued, failure),
					"bench-producer-" + p);
			producer.start();
			producers.add(producer);
		}
		if (!options.vacuumInterval().isZero()) {
			Thread vacuum = new Thread(() -> vacuum(node, prefix + "jobs", options, running, failure), "bench-vacuum");
			vacuum.start();
			producers.add(vacuum);
		}
		try {
			sleep(options.steadyWarmup().toNanos(), failure);
			probe.latencies().clear();
			probe.recording(true);
			long completedBefore = probe.completed();
			long enqueuedBefore = enqueued.get();
			WalUsage walStart = environment.walUsage();
			long start = System.nanoTime();
			CpuUsage cpuStart = CpuUsage.now();
			sleep(options.steadyDuration().toNanos(), failure);
			CpuUsage.Split cpu = CpuUsage.now().since(cpuStart);
			long completed = probe.completed() - completedBefore;
			WalUsage walEnd = environment.walUsage();
			// checkpoints in the window: after one, the first change to each page logs its full image
			WalUsage wal = WalUsage.between(walStart, walEnd);
			long offered = enqueued.get() - enqueuedBefore;
			double seconds = (System.nanoTime() - start) / 1e9;
			probe.recording(false);
			long backlog = enqueued.get() - probe.completed();
			LatencySummary latency = probe.latencies().summary();
			ScenarioResult result = new ScenarioResult(name(), completed, seconds, latency)
				.with("enqueued_per_sec", offered / seconds)
				.with("backlog_at_end", backlog)
				.with("offered_rate", options.rate())
				.with("backlog_bound", options.steadyBacklog())
				.with("concurrency", options.concurrency())
				.with("vacuum_interval_s", options.vacuumInterval().toMillis() / 1000.0)
				.with("java_cpu_pct", cpu.java())
				.with("pg_cpu_pct", cpu.postgres())
				.with("machine_cpu_pct", cpu.machine())
				.with("java_us_per_job", cpu.javaMicrosPer(completed))
				.with("pg_us_per_job", cpu.postgresMicrosPer(completed));
			result = WalUsage.addTo(result, wal, completed);
			List<String> headers = new ArrayList<>(List.of("producers", "offered/s", "enqueued/s", "completed/s",
					"backlog at end", "p50 ms", "p95 ms", "p99 ms", "max ms", "java cpu%", "pg cpu%", "machine cpu%"));
			headers.addAll(WalUsage.HEADERS);
			List<Object> row = new ArrayList<>(List.of(options.producers(),
					offeredLabel(options), offered / seconds,
					result.jobsPerSecond(), backlog, latency.p50(), latency.p95(), latency.p99(), latency.max(),
					cpu.java(), cpu.postgres(), cpu.machine()));
			row.addAll(WalUsage.cells(wal, completed));
			new ResultTable("steady: producers and worker together (latency = enqueue to handler start)",
					headers.toArray(String[]::new))
				.row(row.toArray())
				.print(environment.out());
			return result;
		}
		finally {
			running.set(false);
			for (Thread producer : producers) {
				producer.join();
			}
			environment.stop(node);
		}
	}

	private static String offeredLabel(BenchmarkOptions options) {
		String offered = (options.rate() > 0) ? String.valueOf(options.rate()) : "unthrottled";
		return (options.steadyBacklog() > 0) ? offered + ", backlog ≤ " + options.steadyBacklog() : offered;
	}

	/** Whether the jobs enqueued and not yet completed reach {@code bound} (never when it is 0). */
	private static BooleanSupplier backlogBound(int bound, AtomicLong enqueued, JobProbe probe) {
		return (bound <= 0) ? () -> false : () -> enqueued.get() - probe.completed() >= bound;
	}

	/**
	 * Offers one producer's share of {@code rate} (0 = as fast as it can) in batches until
	 * {@code running} is cleared, waiting while {@code full} says the backlog is at its bound.
	 */
	static void produce(OjsTemplate template, int batch, int producers, int rate, BooleanSupplier full,
			AtomicBoolean running, AtomicLong enqueued, AtomicReference<Throwable> failure) {
		// each producer offers rate / producers jobs per second, one batch every interval
		long intervalNanos = (rate > 0) ? (long) (1e9 * batch * producers / rate) : 0;
		long next = System.nanoTime();
		try {
			while (running.get()) {
				if (full.getAsBoolean()) {
					LockSupport.parkNanos(FULL_PAUSE_NANOS);
					continue;
				}
				template.enqueueAll(BenchJobs.NOOP, Preloader.argsBatch(batch, LatencyRecorder.nowMicros()),
						JobOptions.none());
				enqueued.addAndGet(batch);
				if (intervalNanos > 0) {
					// fixed rate; after a stall, catch up by at most one second's worth
					next = Math.max(next + intervalNanos, System.nanoTime() - 1_000_000_000L);
					LockSupport.parkNanos(next - System.nanoTime());
				}
			}
		}
		catch (Throwable ex) {
			failure.compareAndSet(null, ex);
		}
	}

	/** Vacuums the job table every interval (autovacuum's work, on a server where it is off). */
	static void vacuum(BenchEnvironment.Node node, String table, BenchmarkOptions options,
			AtomicBoolean running, AtomicReference<Throwable> failure) {
		JdbcTemplate jdbc = node.context().getBean(JdbcTemplate.class);
		try {
			while (running.get()) {
				LockSupport.parkNanos(options.vacuumInterval().toNanos());
				jdbc.execute("VACUUM (ANALYZE) " + table);
			}
		}
		catch (Throwable ex) {
			failure.compareAndSet(null, ex);
		}
	}

	/** Sleeps, failing early when a background thread reported a failure. */
	static void sleep(long nanos, AtomicReference<Throwable> failure) {
		long deadline = System.nanoTime() + nanos;
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			if (failure.get() != null) {
				throw new IllegalStateException("A producer thread failed", failure.get());
			}
			LockSupport.parkNanos(Math.min(left, 50_000_000L));
		}
	}

}

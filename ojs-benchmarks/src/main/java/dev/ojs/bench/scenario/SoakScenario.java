package dev.ojs.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.bench.SoakChart;
import dev.ojs.bench.SoakOptions;
import dev.ojs.bench.TimeSeries;
import dev.ojs.spring.JobOptions;

/**
 * Soak: {@code --producers} offer {@code --soak-fraction} of the warm drain rate for
 * {@code --soak-duration} to a node whose worker keeps completed jobs for
 * {@code --soak-retention}. Every {@code --soak-interval} a sample is taken: offered and
 * completed jobs/s, backlog, latency from due to handler start (the jobs are due when
 * enqueued, so this is the claim's delay plus the hand-over to a handler thread) p50 and p99
 * of the jobs started in the interval, and the job table's statistics ({@link TableStats}).
 * The samples are written to {@code soak-<time>.csv} and plotted in {@code soak-<time>.svg}
 * under {@code --output-dir}, both rewritten after every sample.
 */
final class SoakScenario implements Scenario {

	static final List<String> COLUMNS = List.of("elapsed_s", "offered_per_sec", "completed_per_sec", "backlog",
			"p50_ms", "p99_ms");

	@Override
	public String name() {
		return "soak";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		SoakOptions soak = options.soak();
		boolean mariaDb = BenchDatabase.isMariaDb(options.jdbcUrl());
		String prefix = environment.newPrefix();
		BenchEnvironment.Node node = environment.start(prefix, true,
				Map.of("ojs.retention.completed", soak.retention().toString()));
		JobProbe probe = node.probe();
		double drainRate = drainRate(environment, node);
		int rate = soak.offeredRate(drainRate);
		environment.out().printf("soak: offering %,d jobs/s (%.2f of %,.0f jobs/s) for %s, completed jobs kept %s%n",
				rate, soak.fraction(), drainRate, soak.duration(), soak.retention());
		TableStats stats = new TableStats(node.context().getBean(JdbcTemplate.class), prefix + "jobs", mariaDb);
		List<String> columns = new ArrayList<>(COLUMNS);
		columns.addAll(TableStats.COLUMNS);
		stats.sample().keySet().stream().filter((key) -> !columns.contains(key)).forEach(columns::add);
		TimeSeries series = new TimeSeries(columns);
		Path directory = soak.outputDirectory();
		Files.createDirectories(directory);
		String stem = "soak-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
		Path csv = directory.resolve(stem + ".csv");
		Path svg = directory.resolve(stem + ".svg");
		String title = "soak: " + rate + " jobs/s offered (" + soak.fraction() + " of " + Math.round(drainRate)
				+ "), completed kept " + soak.retention() + (mariaDb ? ", MariaDB" : ", PostgreSQL");
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong enqueued = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int p = 0; p < options.producers(); p++) {
			Thread producer = new Thread(() -> SteadyStateScenario.produce(node.template(), options.batchSize(),
					options.producers(), rate, () -> false, running, enqueued, failure), "bench-soak-producer-" + p);
			producer.start();
			threads.add(producer);
		}
		if (!options.vacuumInterval().isZero() && !mariaDb) {
			Thread vacuum = new Thread(() -> SteadyStateScenario.vacuum(node, prefix + "jobs", options, running, failure),
					"bench-vacuum");
			vacuum.start();
			threads.add(vacuum);
		}
		LatencyRecorder all = new LatencyRecorder();
		long completedBefore = probe.completed();
		long start = System.nanoTime();
		try {
			// the table before the load: the plot starts from it
			Map<String, Double> baseline = new LinkedHashMap<>(stats.sample());
			baseline.put("elapsed_s", 0.0);
			baseline.keySet().retainAll(columns);
			series.add(baseline);
			probe.latencies().clear();
			probe.recording(true);
			long lastNanos = start;
			long lastEnqueued = 0;
			long lastCompleted = completedBefore;
			long intervals = Math.max(1, soak.duration().toNanos() / soak.interval().toNanos());
			for (long i = 1; i <= intervals; i++) {
				SteadyStateScenario.sleep(start + i * soak.interval().toNanos() - System.nanoTime(), failure);
				long now = System.nanoTime();
				long offered = enqueued.get();
				long completed = probe.completed();
				long[] latencies = probe.latencies().takeAll();
				for (long micros : latencies) {
					all.record(micros);
				}
				LatencySummary latency = LatencySummary.ofMicros(latencies);
				double seconds = (now - lastNanos) / 1e9;
				Map<String, Double> row = new LinkedHashMap<>();
				row.put("elapsed_s", (now - start) / 1e9);
				row.put("offered_per_sec", (offered - lastEnqueued) / seconds);
				row.put("completed_per_sec", (completed - lastCompleted) / seconds);
				row.put("backlog", (double) (offered - (completed - completedBefore)));
				row.put("p50_ms", latency.p50());
				row.put("p99_ms", latency.p99());
				stats.sample().forEach((key, value) -> row.put(key, value));
				row.keySet().retainAll(columns);
				series.add(row);
				environment.out().println("soak sample " + String.join(" ", row.entrySet().stream()
					.map((figure) -> figure.getKey() + "=" + TimeSeries.cell(figure.getValue())).toList()));
				Files.writeString(csv, series.toCsv());
				Files.writeString(svg, SoakChart.render(title, series, panels(columns)));
				lastNanos = now;
				lastEnqueued = offered;
				lastCompleted = completed;
			}
		}
		finally {
			running.set(false);
			for (Thread thread : threads) {
				thread.join();
			}
			probe.recording(false);
			environment.stop(node);
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		long completed = probe.completed() - completedBefore;
		environment.out().println("soak: wrote " + csv.toAbsolutePath() + " and " + svg.toAbsolutePath());
		return new ScenarioResult(name(), completed, seconds, all.summary()).with("offered_rate", rate)
			.with("drain_rate", drainRate)
			.with("fraction", soak.fraction())
			.with("samples", series.size() - 1)
			.with("max_p99_ms", max(series.column("p99_ms")))
			.with("table_bytes_end", last(series.column("table_bytes")))
			.with("indexes_bytes_end", last(series.column("indexes_bytes")))
			.with("dead_rows_end", last(series.column("dead_rows")))
			.with("autovacuum_count_end", last(series.column("autovacuum_count")));
	}

	/**
	 * The warm drain rate the load is a fraction of: {@code --soak-drain-rate}, else the warm
	 * rate of a drain earlier in the run, else measured here: two drains of
	 * {@code --soak-probe-jobs} on the soak node, the second one's rate (its code then compiled).
	 */
	private static double drainRate(BenchEnvironment environment, BenchEnvironment.Node node) {
		SoakOptions soak = environment.options().soak();
		if (soak.drainRate() > 0) {
			return soak.drainRate();
		}
		ScenarioResult drain = environment.earlier("drain");
		if (drain != null && drain.extra().getOrDefault("warm_jobs_per_sec", Double.NaN) > 0) {
			environment.out().println("soak: the warm drain rate of the drain run before");
			return drain.extra().get("warm_jobs_per_sec");
		}
		double rate = Double.NaN;
		for (int round = 1; round <= 2; round++) {
			JobProbe probe = node.probe();
			long target = probe.completed() + soak.probeJobs();
			long start = System.nanoTime();
			node.template().enqueueAll(BenchJobs.NOOP,
					Collections.nCopies(soak.probeJobs(), List.of(LatencyRecorder.nowMicros())), JobOptions.none());
			probe.await(probe::completed, target, environment.options().timeout(), "the soak's drain");
			rate = soak.probeJobs() / ((System.nanoTime() - start) / 1e9);
			environment.out().printf("soak: drain %d of %,d jobs (enqueued and run at once): %,.0f jobs/s%n", round,
					soak.probeJobs(), rate);
		}
		return rate;
	}

	/** The plot's panels; the index panel lists every index column. */
	static List<SoakChart.Panel> panels(List<String> columns) {
		List<String> sizes = new ArrayList<>(List.of("table_bytes", "indexes_bytes"));
		columns.stream().filter((column) -> column.startsWith("index_")).forEach(sizes::add);
		return List.of(new SoakChart.Panel("due to handler start, ms", List.of("p50_ms", "p99_ms"), 1),
				new SoakChart.Panel("jobs/s", List.of("offered_per_sec", "completed_per_sec"), 1),
				new SoakChart.Panel("job table and index sizes, MiB", sizes, 1.0 / (1 << 20)),
				new SoakChart.Panel("rows (dead: PostgreSQL dead tuples, MariaDB purge backlog)",
						List.of("live_rows", "dead_rows", "backlog"), 1),
				new SoakChart.Panel("vacuums run (cumulative)", List.of("vacuum_count", "autovacuum_count"), 1));
	}

	private static double max(double[] values) {
		double max = Double.NaN;
		for (double value : values) {
			if (!Double.isNaN(value) && !(value <= max)) {
				max = value;
			}
		}
		return max;
	}

	private static double last(double[] values) {
		return (values.length > 0) ? values[values.length - 1] : Double.NaN;
	}

}

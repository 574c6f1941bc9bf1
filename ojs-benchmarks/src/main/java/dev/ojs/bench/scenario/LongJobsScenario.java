package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;
import dev.ojs.worker.WorkerSettings;

/**
 * Long jobs at the default concurrency: four times as many 1-second jobs as the queue has
 * slots ({@code ojs.worker.concurrency}'s default, whatever {@code --concurrency} says). A node
 * must not over-claim them: a claimed job should start at once, never sit reserved behind
 * others. Each job's time held is read from the table ({@code completed_at - started_at}, both
 * on the application's clock); the latency figures are that time less the job's run, the wait
 * before its handler started plus the write of its outcome. Also printed: how many jobs were held
 * 100 ms or more beyond their run, and the most jobs {@code active} at once (sampled every 10 ms):
 * those running plus those whose handler returned and whose outcome waits to be written, which
 * the completer's backpressure keeps below twice the concurrency.
 */
final class LongJobsScenario implements Scenario {

	private static final long SAMPLE_MILLIS = 10;

	@Override
	public String name() {
		return "long-jobs";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int concurrency = WorkerSettings.DEFAULT_QUEUE_CONCURRENCY;
		long sleepMillis = options.smoke() ? 20 : 1000;
		int jobs = concurrency * (options.smoke() ? 2 : 4);
		String prefix = environment.newPrefix();
		BenchEnvironment.Node node = environment.start(prefix, true, Map.of("ojs.worker.concurrency", concurrency));
		JdbcTemplate jdbc = new JdbcTemplate(node.context().getBean(DataSource.class));
		String table = prefix + "jobs";
		long start = System.nanoTime();
		node.template()
			.enqueueAll(BenchJobs.SLEEP, Collections.nCopies(jobs, List.of(LatencyRecorder.nowMicros(), sleepMillis)),
					JobOptions.none());
		long deadline = start + options.timeout().toNanos();
		long maxActive = 0;
		while (count(jdbc, table, "completed") < jobs) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("long jobs did not complete within " + options.timeout());
			}
			maxActive = Math.max(maxActive, count(jdbc, table, "active"));
			Thread.sleep(SAMPLE_MILLIS);
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		long[] heldBeyondRun = jdbc
			.queryForList("SELECT (EXTRACT(EPOCH FROM (completed_at - started_at)) * 1000000)::bigint FROM " + table,
					Long.class)
			.stream()
			.mapToLong((micros) -> Math.max(0, micros - sleepMillis * 1000))
			.toArray();
		environment.stop(node);
		long heldLong = Arrays.stream(heldBeyondRun).filter((micros) -> micros >= 100_000).count();
		LatencySummary held = LatencySummary.ofMicros(heldBeyondRun);
		double ideal = (double) jobs / concurrency * sleepMillis / 1000.0;
		ScenarioResult result = new ScenarioResult(name(), jobs, seconds, held).with("concurrency", concurrency)
			.with("job_ms", sleepMillis)
			.with("ideal_seconds", ideal)
			.with("max_active", maxActive)
			.with("held_100ms_or_more", heldLong);
		new ResultTable("long-jobs: " + jobs + " jobs of " + Duration.ofMillis(sleepMillis)
				+ " at the default concurrency (held = completed_at - started_at less the run)", "jobs", "concurrency",
				"seconds", "ideal s", "max active", "held p50 ms", "held p99 ms", "held max ms", "held >= 100 ms")
			.row(jobs, concurrency, seconds, ideal, maxActive, held.p50(), held.p99(), held.max(), heldLong)
			.print(environment.out());
		return result;
	}

	/** The jobs of {@code table} in {@code state}. */
	private static long count(JdbcTemplate jdbc, String table, String state) {
		Long count = jdbc.queryForObject("SELECT count(*) FROM " + table + " WHERE state = ?", Long.class, state);
		return (count != null) ? count : 0;
	}

}

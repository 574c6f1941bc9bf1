package dev.ojs.bench.scenario;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.recurring.RecurringJobSettings;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.RecurringJob;

/**
 * Recurring jobs at scale (ojs-cron.md §7.3): {@code --cron-schedules} recurring jobs registered
 * through {@link OjsRecurringJobs}, all firing at the same second (a 6-field expression of that
 * second, UTC), on one node whose evaluator holds the lease and whose worker is off. Measured:
 * the time from that second until every occurrence's job exists, the CPU of this JVM, of the
 * evaluator's thread and of PostgreSQL meanwhile; then the evaluator's cost per evaluation
 * while nothing is due, and the plan of its due query ({@code EXPLAIN (ANALYZE, BUFFERS)}),
 * which must read the due rows only, through the index on {@code next_run_at}. Fails unless
 * exactly one job per recurring job was enqueued.
 */
final class CronScenario implements Scenario {

	private static final String NAME_PREFIX = "bench-cron-";

	private static final int REGISTER_THREADS = 4;

	/** Time before the due second that is left after registration, at the least. */
	private static final Duration MIN_LEAD = Duration.ofSeconds(3);

	/** Registration time budgeted per recurring job when choosing the due second. */
	private static final Duration REGISTER_BUDGET = Duration.ofMillis(3);

	@Override
	public String name() {
		return "cron";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int recurringJobs = options.cronSchedules();
		String prefix = environment.newPrefix();
		BenchEnvironment.Node node = environment.start(prefix, false, Map.of());
		RecurringJobProbe probe = node.context().getBean(RecurringJobProbe.class);
		RecurringJobEvaluator evaluator = node.context().getBean(RecurringJobEvaluator.class);
		JdbcTemplate jdbc = node.context().getBean(JdbcTemplate.class);

		Instant due = Instant.now().plus(MIN_LEAD).plus(REGISTER_BUDGET.multipliedBy(recurringJobs))
			.truncatedTo(ChronoUnit.SECONDS)
			.plusSeconds(1);
		double registration = register(node.context().getBean(OjsRecurringJobs.class), recurringJobs, due);
		if (!Instant.now().isBefore(due)) {
			throw new IllegalStateException("Registering " + recurringJobs + " schedules took " + registration
					+ " s, past their due second " + due);
		}

		// the burst: every recurring job due at the same second
		Thread evaluatorThread = evaluatorThread();
		sleepUntil(due);
		long dueNanos = System.nanoTime() - Duration.between(due, Instant.now()).toNanos();
		CpuUsage cpuStart = CpuUsage.now();
		long evaluatorCpuStart = threadCpuNanos(evaluatorThread);
		long deadline = System.nanoTime() + options.timeout().toNanos();
		while (probe.triggered() < recurringJobs) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Timed out after " + options.timeout() + " waiting for the jobs of "
						+ recurringJobs + " due schedules: " + probe.triggered() + " enqueued");
			}
			LockSupport.parkNanos(1_000_000);
		}
		CpuUsage.Split burstCpu = CpuUsage.now().since(cpuStart);
		double evaluatorCpu = (threadCpuNanos(evaluatorThread) - evaluatorCpuStart) / 1e9;
		double window = (System.nanoTime() - dueNanos) / 1e9;
		double allJobs = (probe.lastNanos() - dueNanos) / 1e9;
		double firstJob = (probe.firstNanos() - dueNanos) / 1e9;
		double evaluation = (probe.lastNanos() - probe.firstNanos()) / 1e9;
		JobCount afterBurst = JobCount.of(jdbc, prefix, due);

		// nothing due: what an evaluation costs
		CpuUsage idleStart = CpuUsage.now();
		long idleEvaluatorStart = threadCpuNanos(evaluatorThread);
		int evaluations = countEvaluations(evaluator, options.cronIdle());
		CpuUsage.Split idleCpu = CpuUsage.now().since(idleStart);
		double idleSeconds = options.cronIdle().toNanos() / 1e9;
		double idleEvaluatorMs = (threadCpuNanos(evaluatorThread) - idleEvaluatorStart) / 1e6;
		DuePlan plan = DuePlan.explain(jdbc, prefix);
		JobCount afterIdle = JobCount.of(jdbc, prefix, due);
		environment.stop(node);
		afterBurst.check(recurringJobs, "after the due second");
		afterIdle.check(recurringJobs, "after the idle evaluations");

		double javaCpu = burstCpu.java() / 100 * window;
		double pgCpu = burstCpu.postgres() / 100 * window;
		double perEvaluation = Math.max(evaluations, 1);
		double idleJavaMs = idleCpu.java() / 100 * idleSeconds * 1000 / perEvaluation;
		double idlePgMs = idleCpu.postgres() / 100 * idleSeconds * 1000 / perEvaluation;
		LatencySummary lateness = probe.lateness().summary();
		ScenarioResult result = new ScenarioResult(name(), recurringJobs, allJobs, lateness)
			.with("first_job_s", firstJob)
			.with("evaluation_s", evaluation)
			.with("schedules_per_sec", recurringJobs / evaluation)
			.with("java_cpu_s", javaCpu)
			.with("evaluator_cpu_s", evaluatorCpu)
			.with("pg_cpu_s", pgCpu)
			.with("java_cpu_us_per_schedule", javaCpu * 1e6 / recurringJobs)
			.with("pg_cpu_us_per_schedule", pgCpu * 1e6 / recurringJobs)
			.with("jobs_created", afterIdle.jobs())
			.with("duplicate_jobs", afterIdle.jobs() - afterIdle.recurringJobs())
			.with("idle_evaluations", evaluations)
			.with("idle_java_cpu_ms_per_eval", idleJavaMs)
			.with("idle_evaluator_cpu_ms_per_eval", idleEvaluatorMs / perEvaluation)
			.with("idle_pg_cpu_ms_per_eval", idlePgMs)
			.with("due_query_rows_scanned", plan.rowsScanned())
			.with("due_query_buffers", plan.buffers())
			.with("due_query_uses_index", plan.usesIndex() ? 1 : 0)
			.with("registration_s", registration);
		new ResultTable("cron: " + recurringJobs + " schedules due at the same second, one evaluating node, worker off",
				"schedules", "register s", "first job s", "all jobs s", "evaluation s", "schedules/s",
				"lateness p50 ms", "lateness p99 ms", "java cpu s", "evaluator cpu s", "pg cpu s",
				"java µs/schedule", "pg µs/schedule", "jobs", "duplicates")
			.row(recurringJobs, registration, firstJob, allJobs, evaluation, recurringJobs / evaluation, lateness.p50(),
					lateness.p99(), javaCpu, evaluatorCpu, pgCpu, javaCpu * 1e6 / recurringJobs,
					pgCpu * 1e6 / recurringJobs, afterIdle.jobs(), afterIdle.jobs() - afterIdle.recurringJobs())
			.print(environment.out());
		new ResultTable("cron: nothing due for " + options.cronIdle() + " (per evaluation)", "evaluations",
				"java cpu ms", "evaluator cpu ms", "pg cpu ms", "due query rows scanned", "due query buffers",
				"due query plan")
			.row(evaluations, idleJavaMs, idleEvaluatorMs / perEvaluation, idlePgMs, plan.rowsScanned(),
					plan.buffers(), plan.summary())
			.print(environment.out());
		environment.out().print(plan.text());
		return result;
	}

	/**
	 * Registers {@code count} recurring jobs of the no-op job firing at {@code due} (and then daily).
	 * @return seconds it took
	 */
	private static double register(OjsRecurringJobs recurring, int count, Instant due) throws Exception {
		ZonedDateTime at = due.atZone(ZoneOffset.UTC);
		String cron = at.getSecond() + " " + at.getMinute() + " " + at.getHour() + " * * *";
		long start = System.nanoTime();
		Batches.run(REGISTER_THREADS, count, 100, (from, size) -> {
			for (long i = from; i < from + size; i++) {
				recurring.register(RecurringJob.of(String.format("%s%06d", NAME_PREFIX, i), cron, BenchJobs.NOOP)
					.args(List.of(0L)));
			}
		});
		return (System.nanoTime() - start) / 1e9;
	}

	/** Evaluations finished within {@code duration}, as their {@link RecurringJobEvaluator#lastEvaluation()} tells. */
	private static int countEvaluations(RecurringJobEvaluator evaluator, Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		Instant last = evaluator.lastEvaluation();
		int evaluations = 0;
		while (System.nanoTime() < end) {
			LockSupport.parkNanos(5_000_000);
			Instant now = evaluator.lastEvaluation();
			if (now != null && !now.equals(last)) {
				evaluations++;
				last = now;
			}
		}
		return evaluations;
	}

	private static void sleepUntil(Instant instant) {
		long millis;
		while ((millis = Duration.between(Instant.now(), instant).toMillis()) >= 0) {
			LockSupport.parkNanos(Math.min(millis, 100) * 1_000_000 + 100_000);
		}
	}

	/** The evaluator's thread ({@code ojs-cron-<node>}). */
	private static Thread evaluatorThread() {
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().startsWith("ojs-cron-")) {
				return thread;
			}
		}
		throw new IllegalStateException("No evaluator thread ojs-cron-* is running");
	}

	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19+
	private static long threadCpuNanos(Thread thread) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		return threads.getThreadCpuTime(thread.getId());
	}

	/**
	 * The jobs the recurring jobs enqueued (unique key {@code cron:<name>:<tick>}) and how many
	 * recurring jobs they came from; and the recurring jobs that fired exactly once and moved on past
	 * the due second.
	 */
	private record JobCount(long jobs, long recurringJobs, long advanced) {

		static JobCount of(JdbcTemplate jdbc, String prefix, Instant due) {
			JobCount count = jdbc.queryForObject("SELECT count(*), count(DISTINCT unique_key),"
					+ " count(DISTINCT meta->>'cron_name') FROM " + prefix + "jobs WHERE unique_key LIKE ?",
					(rs, row) -> new JobCount(rs.getLong(1), Math.min(rs.getLong(2), rs.getLong(3)), 0),
					"cron:" + NAME_PREFIX + "%");
			Long advanced = jdbc.queryForObject("SELECT count(*) FROM " + prefix
					+ "schedules WHERE run_count = 1 AND next_run_at > ?", Long.class, Timestamp.from(due));
			return new JobCount(count.jobs(), count.recurringJobs(), (advanced != null) ? advanced : 0);
		}

		void check(int expected, String when) {
			if (this.jobs != expected || this.recurringJobs != expected || this.advanced != expected) {
				throw new IllegalStateException("Expected one job for each of " + expected + " schedules " + when
						+ ", found " + this.jobs + " jobs of " + this.recurringJobs + " schedules; " + this.advanced
						+ " schedules fired once and moved on");
			}
		}

	}

	/**
	 * The evaluator's due query ({@code RecurringJobSql}: {@code next_run_at <= ? ORDER BY
	 * next_run_at LIMIT ?}, values bound) run once under {@code EXPLAIN (ANALYZE, BUFFERS)} with
	 * nothing due.
	 *
	 * @param rowsScanned rows its scans read (returned, filtered out or rechecked, times loops)
	 * @param buffers shared buffers it touched (hit or read)
	 * @param usesIndex whether every scan goes through an index (none is a sequential scan)
	 * @param summary the scans, e.g. {@code Index Scan using …_schedules_due_idx}
	 * @param text the plan as PostgreSQL prints it
	 */
	private record DuePlan(long rowsScanned, long buffers, boolean usesIndex, String summary, String text) {

		static DuePlan explain(JdbcTemplate jdbc, String prefix) {
			String query = "SELECT * FROM " + prefix + "schedules WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?";
			Timestamp now = Timestamp.from(Instant.now());
			int limit = RecurringJobSettings.DEFAULT_BATCH_SIZE;
			String json = jdbc.queryForObject("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + query, String.class, now,
					limit);
			List<String> lines = jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) " + query, String.class, now, limit);
			JsonNode plan = new JsonMapper().readTree(json).path(0).path("Plan");
			List<JsonNode> scans = new ArrayList<>();
			collectScans(plan, scans);
			long rows = 0;
			boolean index = !scans.isEmpty();
			List<String> summary = new ArrayList<>();
			for (JsonNode scan : scans) {
				rows += (scan.path("Actual Rows").asLong() + scan.path("Rows Removed by Filter").asLong()
						+ scan.path("Rows Removed by Index Recheck").asLong()) * Math.max(1, scan.path("Actual Loops").asLong());
				String type = scan.path("Node Type").asString();
				index &= !type.equals("Seq Scan");
				summary.add(type + (scan.has("Index Name") ? " using " + scan.path("Index Name").asString() : ""));
			}
			long buffers = plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
			StringBuilder text = new StringBuilder("due query plan, nothing due:").append(System.lineSeparator());
			lines.forEach((line) -> text.append("  ").append(line).append(System.lineSeparator()));
			return new DuePlan(rows, buffers, index, String.join(", ", summary), text.toString());
		}

		private static void collectScans(JsonNode node, List<JsonNode> scans) {
			if (node.path("Node Type").asString("").endsWith("Scan")) {
				scans.add(node);
			}
			for (JsonNode child : node.path("Plans").values()) {
				collectScans(child, scans);
			}
		}

	}

}

package dev.ojs.bench.chaos;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.CommandLine;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.chaos.BadInputGenerator.BadInput;
import dev.ojs.bench.chaos.FaultPlan.Fault;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

/**
 * The fault-injection harness. It enqueues the jobs (some fail transiently, some have args
 * that do not bind), runs worker processes ({@link ChaosWorker}) against them, kills random
 * workers with SIGKILL and restarts PostgreSQL while they work, then verifies from the
 * stored jobs and the executions the handlers recorded that nothing was lost, run twice at
 * once, or run more often than its policy allows. Malformed retry policies are fed through
 * {@link RetryPolicy#parse} and {@link OjsTemplate#enqueue} first. Exits non-zero when any
 * check fails.
 */
public final class ChaosCoordinator {

	private static final String BAD_INPUT_TYPE = "chaos.bad_input";

	private static final Duration WORKER_START_TIMEOUT = Duration.ofSeconds(120);

	private final ChaosOptions options;

	private final PrintStream out;

	private final Random random;

	private final String prefix = BenchDatabase.newTablePrefix("chaos");

	private final List<WorkerProcess> workers = new ArrayList<>();

	private final Set<Long> killedPids = new HashSet<>();

	private final List<String> unexpectedExits = new ArrayList<>();

	private final List<Check> checks = new ArrayList<>();

	private int killsDone;

	private int restartsDone;

	private @Nullable String restartSkipped;

	private @Nullable Instant restartEnd;

	private Set<Long> restartSurvivors = Set.of();

	private ChaosCoordinator(ChaosOptions options, PrintStream out) {
		this.options = options;
		this.out = out;
		this.random = new Random(options.seed());
	}

	public static void main(String[] args) throws Exception {
		System.exit(run(args, System.out));
	}

	/**
	 * Runs the harness.
	 * @return 0 when every check passed, 1 when one failed, 2 for bad options
	 */
	public static int run(String[] args, PrintStream out) throws Exception {
		CommandLine.Parsed<ChaosOptions> parsed = CommandLine.read(args, ChaosOptions.USAGE, out, ChaosOptions::parse);
		if (parsed.options() == null) {
			return parsed.status();
		}
		return new ChaosCoordinator(parsed.options(), out).run() ? 0 : 1;
	}

	private boolean run() throws Exception {
		BenchDatabase.ensureDatabase(this.options.jdbcUrl());
		this.out.printf("chaos: table prefix %s, %d workers, %,d jobs (%d%% fail their first %d attempt(s),"
				+ " max_attempts %d), %d bad-args jobs, %d kills, %d PostgreSQL restart(s), seed %d%n", this.prefix,
				this.options.workers(), this.options.jobs(), this.options.flakyPercent(), this.options.failAttempts(),
				this.options.maxAttempts(), this.options.badArgsJobs(), this.options.kills(), this.options.pgRestarts(),
				this.options.seed());
		if (this.options.pgRestarts() > 0) {
			Optional<String> unavailable = this.options.pgRestart().equals("never") ? Optional.of("--pg-restart=never")
					: PostgresControl.local().unavailableReason(this.options.jdbcUrl());
			unavailable.ifPresent((reason) -> this.out.println("PostgreSQL restart will be skipped: " + reason));
			this.restartSkipped = unavailable.orElse(null);
		}
		ConfigurableApplicationContext context = startCoordinatorApplication();
		try {
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			OjsTemplate template = context.getBean(OjsTemplate.class);
			JobStore store = context.getBean(JobStore.class);
			ExecutionLog log = new ExecutionLog(jdbc, this.prefix);
			log.createTables();
			checkBadInputs(template, jdbc);
			List<ExpectedJob> expected = enqueue(template, log);
			long started = System.nanoTime();
			try {
				startWorkers();
				runWithFaults(log, store, expected.size());
			}
			finally {
				stopWorkers();
			}
			double seconds = (System.nanoTime() - started) / 1e9;
			verify(log, store, expected);
			return report(expected.size(), seconds);
		}
		finally {
			context.close();
			if (!this.options.keepTables()) {
				try (var dataSource = BenchDatabase.dataSource(this.options.jdbcUrl(), 1, "chaos-cleanup")) {
					BenchDatabase.dropPrefixed(dataSource, this.prefix);
				}
			}
			else {
				this.out.println("kept tables with prefix " + this.prefix);
			}
		}
	}

	private ConfigurableApplicationContext startCoordinatorApplication() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", this.options.jdbcUrl());
		properties.put("spring.datasource.hikari.maximum-pool-size", 4);
		properties.put("spring.main.banner-mode", "off");
		properties.put("spring.main.log-startup-info", "false");
		properties.put("logging.level.root", "WARN");
		properties.put("logging.level.com.zaxxer.hikari", "ERROR"); // broken connections while PostgreSQL restarts
		properties.put("ojs.jdbc.table-prefix", this.prefix);
		properties.put("ojs.jdbc.initialize-schema", "always");
		properties.put("ojs.worker.enabled", "false");
		return new SpringApplicationBuilder(CoordinatorConfiguration.class).web(WebApplicationType.NONE)
			.properties(properties)
			.run();
	}

	private void checkBadInputs(OjsTemplate template, JdbcTemplate jdbc) {
		if (this.options.badInputs() == 0) {
			return;
		}
		List<BadInput> inputs = new BadInputGenerator(this.options.seed()).generate(this.options.badInputs());
		long rowsBefore = countJobRows(jdbc);
		BadInputCheck.Tally parse = BadInputCheck.run("RetryPolicy.parse", inputs, RetryPolicy::parse);
		BadInputCheck.Tally enqueue = BadInputCheck.run("OjsTemplate.enqueue", inputs,
				(json) -> template.enqueue(BAD_INPUT_TYPE, List.of(1), JobOptions.builder().retry(json).build()));
		long written = countJobRows(jdbc) - rowsBefore;
		this.checks.add(parse.check());
		this.checks.add(enqueue.check());
		this.checks.add(Check.of("rows written by rejected enqueues", written == 0, written, ""));
		this.out.printf("bad input: %s, %s, %d rows written%n", parse.check().value(), enqueue.check().value(),
				written);
	}

	private long countJobRows(JdbcTemplate jdbc) {
		Long count = jdbc.queryForObject("SELECT count(*) FROM " + this.prefix + "jobs", Long.class);
		return (count != null) ? count : 0;
	}

	private List<ExpectedJob> enqueue(OjsTemplate template, ExecutionLog log) {
		JobOptions jobOptions = JobOptions.builder().retry(this.options.retryPolicyJson()).build();
		List<ExpectedJob> expected = new ArrayList<>();
		int batch = 500;
		for (int from = 0; from < this.options.jobs(); from += batch) {
			int size = Math.min(batch, this.options.jobs() - from);
			List<List<?>> args = new ArrayList<>(size);
			List<Integer> failFirst = new ArrayList<>(size);
			for (int i = 0; i < size; i++) {
				int fails = (this.random.nextInt(100) < this.options.flakyPercent()) ? this.options.failAttempts() : 0;
				failFirst.add(fails);
				args.add(List.of(from + i, fails));
			}
			List<String> ids = template.enqueueAll(ChaosJobs.TYPE, args, jobOptions);
			for (int i = 0; i < size; i++) {
				expected.add(new ExpectedJob(ids.get(i), failFirst.get(i), this.options.maxAttempts(), false));
			}
		}
		for (int i = 0; i < this.options.badArgsJobs(); i++) {
			// an int parameter given a string or an object: the payload no longer matches the method
			List<?> args = (i % 2 == 0) ? List.of("not-a-number", "x") : List.of(Map.of("nested", true), 1);
			String id = template.enqueue(ChaosJobs.TYPE, args, jobOptions);
			expected.add(new ExpectedJob(id, 0, this.options.maxAttempts(), true));
		}
		log.expect(expected);
		return expected;
	}

	private void startWorkers() throws InterruptedException {
		JavaLauncher launcher = JavaLauncher.current();
		List<String> jvm = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
		List<String> args = List.of("--jdbc-url=" + this.options.jdbcUrl(), "--table-prefix=" + this.prefix,
				"--concurrency=" + this.options.concurrency(),
				"--visibility-timeout=" + this.options.visibilityTimeout(),
				"--work-min-ms=" + this.options.workMinMillis(), "--work-max-ms=" + this.options.workMaxMillis());
		Path logs = this.options.logDirectory().resolve(this.prefix);
		for (int i = 1; i <= this.options.workers(); i++) {
			WorkerProcess worker = new WorkerProcess("worker-" + i,
					launcher.command(ChaosWorker.class.getName(), jvm, args), logs.resolve("worker-" + i + ".log"),
					ChaosWorker.READY);
			worker.start();
			this.workers.add(worker);
		}
		for (WorkerProcess worker : this.workers) {
			if (!worker.awaitReady(WORKER_START_TIMEOUT)) {
				throw new IllegalStateException(worker + " did not start; its output:" + System.lineSeparator()
						+ worker.tail(40));
			}
		}
		this.out.printf("workers started: %s (logs in %s)%n", this.workers, logs);
	}

	private void runWithFaults(ExecutionLog log, JobStore store, int total) throws Exception {
		List<Fault> plan = new ArrayList<>(FaultPlan.plan(this.options.kills(), this.options.pgRestarts()));
		long goodJobs = total - this.options.badArgsJobs();
		long deadline = System.nanoTime() + this.options.timeout().toNanos();
		long lastFault = 0;
		long nextTerminalCheck = 0;
		long succeeded = 0;
		while (true) {
			if (System.nanoTime() > deadline) {
				this.checks.add(Check.of("run finished within " + this.options.timeout(), false,
						succeeded + "/" + goodJobs + " jobs succeeded", "timed out; the checks below show why"));
				return;
			}
			restartUnexpectedExits();
			try {
				succeeded = log.succeededJobs();
			}
			catch (DataAccessException ex) {
				// PostgreSQL restarting; try again
			}
			double progress = (double) succeeded / Math.max(goodJobs, 1);
			if (!plan.isEmpty() && progress >= plan.get(0).atProgress()
					&& System.nanoTime() - lastFault >= this.options.minEventGap().toNanos()) {
				if (inject(plan.get(0), progress, log)) {
					plan.remove(0);
					lastFault = System.nanoTime();
				}
			}
			if (System.nanoTime() >= nextTerminalCheck) {
				nextTerminalCheck = System.nanoTime() + 500_000_000L;
				if (allTerminal(store, total)) {
					if (!plan.isEmpty()) {
						this.out.printf("all jobs finished before %d planned fault(s) were injected%n", plan.size());
					}
					return;
				}
			}
			Thread.sleep(50);
		}
	}

	private boolean inject(Fault fault, double progress, ExecutionLog log) throws Exception {
		switch (fault.kind()) {
			case KILL_WORKER -> {
				List<WorkerProcess> ready = this.workers.stream().filter(WorkerProcess::isReady).toList();
				if (ready.size() < 2) {
					return false; // wait until another worker can carry on
				}
				WorkerProcess victim = ready.get(this.random.nextInt(ready.size()));
				long pid = victim.pid();
				this.killedPids.add(pid);
				victim.kill();
				this.killsDone++;
				this.out.printf("%3.0f%%: SIGKILL %s pid %d (exit %d); restarting it%n", progress * 100,
						victim.name(), pid, victim.exitValue());
				victim.start();
				return true;
			}
			case RESTART_POSTGRES -> {
				if (this.restartSkipped != null) {
					this.out.printf("%3.0f%%: PostgreSQL restart skipped: %s%n", progress * 100, this.restartSkipped);
					return true;
				}
				PostgresControl postgres = PostgresControl.local();
				Set<Long> alive = new HashSet<>();
				this.workers.stream().filter(WorkerProcess::isAlive).forEach((worker) -> alive.add(worker.pid()));
				Duration took = postgres.restart();
				this.restartEnd = awaitDatabase(log);
				this.restartSurvivors = alive;
				this.restartsDone++;
				this.out.printf("%3.0f%%: PostgreSQL restarted (%s) in %d ms; workers %s keep running%n",
						progress * 100, String.join(" ", postgres.restartCommand()), took.toMillis(), alive);
				return true;
			}
			default -> throw new IllegalStateException("Unknown fault " + fault);
		}
	}

	private Instant awaitDatabase(ExecutionLog log) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (true) {
			try {
				return log.databaseNow();
			}
			catch (DataAccessException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				Thread.sleep(100);
			}
		}
	}

	private void restartUnexpectedExits() {
		for (WorkerProcess worker : this.workers) {
			if (!worker.isAlive() && worker.starts() > 0) {
				this.unexpectedExits.add(worker.name() + " pid " + worker.pid() + " exited with " + worker.exitValue()
						+ "; last output: " + worker.tail(15).replace(System.lineSeparator(), " | "));
				this.out.printf("UNEXPECTED: %s pid %d exited on its own (exit %d); restarting it%n", worker.name(),
						worker.pid(), worker.exitValue());
				worker.start();
			}
		}
	}

	private boolean allTerminal(JobStore store, int total) {
		try {
			long all = 0;
			long live = 0;
			for (Map.Entry<String, Map<JobState, Long>> queue : store.countByQueueAndState().entrySet()) {
				for (Map.Entry<JobState, Long> state : queue.getValue().entrySet()) {
					all += state.getValue();
					if (!state.getKey().isTerminal()) {
						live += state.getValue();
					}
				}
			}
			return live == 0 && all >= total;
		}
		catch (DataAccessException ex) {
			return false;
		}
	}

	private void stopWorkers() throws InterruptedException {
		for (WorkerProcess worker : this.workers) {
			if (worker.isAlive()) {
				worker.stop(Duration.ofSeconds(30));
			}
		}
	}

	private void verify(ExecutionLog log, JobStore store, List<ExpectedJob> expected) {
		Map<String, Job> jobs = new HashMap<>();
		for (ExpectedJob job : expected) {
			store.find(job.id()).ifPresent((found) -> jobs.put(found.id(), found));
		}
		List<Execution> executions = log.executions();
		this.checks.addAll(new ChaosVerifier(this.options.visibilityTimeout(), Duration.ofSeconds(1)).verify(expected,
				jobs, executions, this.killedPids));
		long badArgsFailed = expected.stream()
			.filter(ExpectedJob::badArgs)
			.map((job) -> jobs.get(job.id()))
			.filter((job) -> job != null && job.state() == JobState.DISCARDED && job.lastError() != null
					&& ChaosVerifier.ARGS_INVALID.equals(job.lastError().type()))
			.count();
		this.checks.add(Check.of("jobs with unbindable args failed with " + ChaosVerifier.ARGS_INVALID,
				badArgsFailed == this.options.badArgsJobs(), badArgsFailed + "/" + this.options.badArgsJobs(), ""));
		this.checks.add(Check.of("worker processes killed with SIGKILL (and restarted)",
				this.killsDone == this.options.kills(), this.killsDone + "/" + this.options.kills(),
				"pids " + this.killedPids));
		this.checks.add(Check.of("worker processes that exited on their own", this.unexpectedExits.isEmpty(),
				this.unexpectedExits.size(), String.join("; ", this.unexpectedExits)));
		checkRestart(executions);
	}

	private void checkRestart(List<Execution> executions) {
		String name = "PostgreSQL restarts";
		if (this.restartSkipped != null) {
			boolean required = this.options.pgRestart().equals("always");
			this.checks.add(new Check(name, required ? Check.Status.FAIL : Check.Status.SKIP,
					this.restartsDone + "/" + this.options.pgRestarts(), "skipped: " + this.restartSkipped));
			return;
		}
		this.checks.add(Check.of(name, this.restartsDone == this.options.pgRestarts(),
				this.restartsDone + "/" + this.options.pgRestarts(), ""));
		if (this.restartEnd == null) {
			return;
		}
		// survivors: alive when PostgreSQL restarted and never killed afterwards
		Set<Long> survivors = new HashSet<>(this.restartSurvivors);
		survivors.removeAll(this.killedPids);
		Set<Long> resumed = new HashSet<>();
		for (Execution execution : executions) {
			if (survivors.contains(execution.pid()) && execution.startedAt().isAfter(this.restartEnd)) {
				resumed.add(execution.pid());
			}
		}
		if (survivors.isEmpty()) {
			this.checks.add(Check.info("workers that ran jobs after the PostgreSQL restart without a restart of their own",
					"n/a", "every worker alive at the restart was killed later"));
			return;
		}
		Set<Long> stalled = new HashSet<>(survivors);
		stalled.removeAll(resumed);
		this.checks.add(Check.of("workers that ran jobs after the PostgreSQL restart without a restart of their own",
				stalled.isEmpty(), resumed.size() + "/" + survivors.size(),
				stalled.isEmpty() ? "" : "no job started after the restart by pids " + stalled));
	}

	private boolean report(int jobs, double seconds) {
		ResultTable table = new ResultTable("chaos: checks", "check", "result", "value");
		List<String> details = new ArrayList<>();
		int failed = 0;
		for (Check check : this.checks) {
			table.row(check.name(), check.status(), check.value());
			if (check.failed()) {
				failed++;
			}
			if (!check.detail().isEmpty()) {
				details.add("  " + check.name() + ": " + abbreviate(check.detail(), 600));
			}
		}
		table.print(this.out);
		details.forEach(this.out::println);
		this.out.printf("RESULT scenario=chaos jobs=%d seconds=%.1f kills=%d pg_restarts=%d checks_failed=%d%n", jobs,
				seconds, this.killsDone, this.restartsDone, failed);
		this.out.println((failed == 0) ? "CHAOS PASSED" : "CHAOS FAILED");
		return failed == 0;
	}

	private static String abbreviate(String text, int max) {
		return (text.length() <= max) ? text : text.substring(0, max - 3) + "...";
	}

	/** The coordinator's own application: enqueue-only, no handlers. */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CoordinatorConfiguration {

	}

}

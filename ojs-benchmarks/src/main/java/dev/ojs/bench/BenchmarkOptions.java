package dev.ojs.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Parameters of a benchmark run. Defaults follow the benchmark issue; {@code --smoke}
 * switches every size to a tiny one (options given explicitly still win).
 *
 * @param jdbcUrl the PostgreSQL database
 * @param scenarios the scenarios to run, in order
 * @param runs how often each scenario runs; with more than one, a median line follows
 * @param warmupRuns unmeasured runs of each scenario before its measured ones, so that the
 * measured runs see a JVM whose hot paths are compiled, as a long-running worker's are
 * @param smoke whether the tiny sizes are in force
 * @param concurrency worker concurrency of the {@code default} queue
 * @param poolSize maximum connections of the application's pool
 * @param pollInterval the worker's idle poll interval
 * @param completedRetention how long completed jobs are kept ({@code PT0S} deletes them)
 * @param enqueueJobs jobs enqueued one by one
 * @param enqueueBatchJobs jobs enqueued through {@code enqueueAll}
 * @param batchSize jobs per {@code enqueueAll} call
 * @param enqueueThreads threads enqueueing at once
 * @param drainJobs jobs pre-inserted for the drain scenario
 * @param steadyDuration measured time of the steady-state scenario
 * @param steadyWarmup unmeasured time before it
 * @param producers producer threads of the steady-state scenario
 * @param rate jobs per second all producers offer together (0 = as fast as they can)
 * @param steadyBacklog the most jobs the producers keep enqueued and not yet completed (0 = no
 * bound): with a bound and no rate, producers and worker settle where enqueued = completed, the
 * rate the node sustains while it also enqueues, which the {@code limit} cycle measures too
 * @param vacuumInterval run {@code VACUUM (ANALYZE)} on the job table this often during the
 * steady state ({@link Duration#ZERO} = never; for servers with autovacuum off)
 * @param idleJobs jobs of the idle-latency scenario, one at a time
 * @param idlePause pause between two idle jobs
 * @param retryJobs jobs of the retry-path scenario
 * @param backlogSmall the small backlog
 * @param backlogLarge the large backlog
 * @param backlogDuration how long processing is measured at each backlog size
 * @param timeout the longest one scenario run may take
 * @param keepTables keep the job tables after the run (for inspection)
 * @param cronSchedules recurring jobs of the cron scenario, all due in the same second
 * @param cronIdle how long the cron scenario measures the evaluator with nothing due
 * @param scheduledAhead jobs the drain and retry scenarios insert a day ahead before their due jobs
 * (delayed jobs that the claims must pass over)
 * @param systems the job systems that run each scenario: {@code ojs} (the starter) and the
 * peers {@code db-scheduler} and {@code jobrunr}, in order
 * @param coldJobs the drain's first jobs, reported apart as the cold rate (the rest is the warm rate)
 * @param httpWorkers HTTP workers of the {@code http} scenario
 * @param limit options of the {@code limit} scenario
 * @param soak options of the {@code soak} scenario
 * @param workflow options of the {@code workflow} scenario
 */
public record BenchmarkOptions(String jdbcUrl, List<String> scenarios, int runs, int warmupRuns, boolean smoke, int concurrency,
		int poolSize, Duration pollInterval, Duration completedRetention, int enqueueJobs, int enqueueBatchJobs,
		int batchSize, int enqueueThreads, int drainJobs, Duration steadyDuration, Duration steadyWarmup,
		int producers, int rate, int steadyBacklog, Duration vacuumInterval, int idleJobs, Duration idlePause, int retryJobs, int backlogSmall, int backlogLarge,
		Duration backlogDuration, Duration timeout, boolean keepTables, int cronSchedules, Duration cronIdle,
		int scheduledAhead, List<String> systems, int coldJobs, int httpWorkers, LimitOptions limit, SoakOptions soak,
		WorkflowOptions workflow) {

	/** The starter's name in {@code --systems}. */
	public static final String OJS = "ojs";

	/** Every scenario, in the order {@code all} runs them. */
	public static final List<String> ALL = List.of("enqueue-single", "enqueue-batch", "drain", "steady", "idle",
			"retry", "backlog", "cron", "long-jobs");

	static final String USAGE = """
			Usage: java -jar ojs-benchmarks.jar [options]
			  --scenario=all|admin|enqueue|enqueue-single|enqueue-batch|drain|steady|idle|retry|backlog|cron|long-jobs|http|limit|limited|soak|workflow|chaos[,...]
			                            (long-jobs: 1 s jobs at the default concurrency, whatever --concurrency says)
			                            (http: HTTP binding fetch/ack against in-process, --drain-jobs up to 20k, --http-workers=N (4))
			                            (limit: plain JDBC insert/claim/complete cycles, no engine; soak: long load, sampled)
			                            (limited: two nodes drain a queue with a concurrency limit, against what it allows)
			                            (workflow: a large batch and its callback, a long chain, CPU per step against a plain job)
			  --jdbc-url=URL            PostgreSQL (default %s; created when missing), or MariaDB
			                            (jdbc:mariadb://...; drain, retry, backlog, limit, soak and workflow only)
			  --smoke                   tiny sizes, for CI
			  --runs=N                  run each scenario N times and print the median (default 1)
			  --warmup-runs=N           first run each scenario N times unmeasured, to compile its hot paths (default 0)
			  --concurrency=N           worker concurrency (default 100)   --pool-size=N (default 30)
			  --poll-interval=DURATION  idle poll interval (default PT1S)
			  --completed-retention=DURATION  keep completed jobs this long (default PT1H; PT0S deletes)
			  --enqueue-jobs=N (10k) --enqueue-batch-jobs=N (200k) --batch-size=N (100) --enqueue-threads=N (1)
			  --drain-jobs=N (200k) --cold-jobs=N (50k: the drain's first N jobs are its cold rate, the rest its warm rate)
			  --limit-clients=N (8) --limit-batch=N (100) --limit-duration=DURATION (PT15S per variant)
			  --with-limit              run limit first, so every throughput figure is also a fraction of it
			  --soak-fraction=F (0.6) of --soak-drain-rate=N (0 = a drain earlier in the run, else measured
			                            by two drains of --soak-probe-jobs=N (50k)) --soak-duration=DURATION (PT30M)
			  --soak-retention=DURATION (PT10M) --soak-interval=DURATION (PT1M) --output-dir=DIR (bench-results)
			  --steady-duration=DURATION (PT30S) --steady-warmup=DURATION (PT5S) --producers=N (2) --rate=N (15000/s, 0 = unthrottled)
			  --steady-backlog=N        producers keep at most N jobs waiting (default 0 = no bound); with
			                            --rate=0 the steady rate is then what the node sustains, enqueueing too
			  --vacuum-interval=DURATION  VACUUM (ANALYZE) the job table this often during steady (default never)
			  --idle-jobs=N (200) --idle-pause=DURATION (PT0.1S, randomised ±50%%)
			  --retry-jobs=N (200k)
			  --workflow-batch=N (10k jobs in one call, one on_complete callback) --workflow-chain=N (100 steps)
			  --workflow-jobs=N (20k per CPU variant) --workflow-group-size=N (100) --workflow-chain-length=N (10)
			  --scheduled-ahead=N       drain and retry: first insert N jobs due a day later (default 0);
			                            the claim's cost is measured after the drain either way
			  --backlog-small=N (10k) --backlog-large=N (1m) --backlog-duration=DURATION (PT10S, after --steady-warmup)
			  --cron-schedules=N (10k, all due in the same second) --cron-idle=DURATION (PT10S, nothing due)
			  --systems=ojs[,db-scheduler][,jobrunr]  who runs each scenario (default ojs); with peers, a
			                            comparison table with ratios follows (peers run enqueue-batch, drain,
			                            steady and, db-scheduler only, retry)
			  --timeout=DURATION        per scenario run (default PT15M)
			  --keep-tables             do not drop the run's tables
			Sizes accept 200k, 1m, 1_000_000. --scenario=chaos takes the fault harness's options (--scenario=chaos --help).
			--jfr-summary=FILE.jfr [--jfr-threads=ojs-] summarises a JFR recording (CPU samples by thread, component, method).
			""".formatted(BenchDatabase.DEFAULT_URL);

	/**
	 * Reads the options.
	 * @param line the command line
	 * @return the options
	 * @throws IllegalArgumentException for unknown scenarios or malformed values
	 */
	public static BenchmarkOptions parse(CommandLine line) {
		boolean smoke = line.flag("smoke", false);
		List<String> scenarios = expand(line.list("scenario", List.of("all")));
		if (line.flag("with-limit", false) && !scenarios.contains("limit")) {
			scenarios = new ArrayList<>(scenarios);
			scenarios.add(0, "limit");
			scenarios = List.copyOf(scenarios);
		}
		BenchmarkOptions options = new BenchmarkOptions(line.string("jdbc-url", BenchDatabase.DEFAULT_URL), scenarios,
				positive(line, "runs", 1), (int) line.number("warmup-runs", 0), smoke, positive(line, "concurrency", 100), positive(line, "pool-size", 30),
				line.duration("poll-interval", Duration.ofSeconds(1)),
				line.duration("completed-retention", Duration.ofHours(1)),
				positive(line, "enqueue-jobs", smoke ? 200 : 10_000),
				positive(line, "enqueue-batch-jobs", smoke ? 1_000 : 200_000), positive(line, "batch-size", 100),
				positive(line, "enqueue-threads", 1), positive(line, "drain-jobs", smoke ? 1_000 : 200_000),
				line.duration("steady-duration", smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(30)),
				line.duration("steady-warmup", smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(5)),
				positive(line, "producers", 2), line.integer("rate", smoke ? 1_000 : 15_000),
				line.integer("steady-backlog", 0),
				line.duration("vacuum-interval", Duration.ZERO),
				positive(line, "idle-jobs", smoke ? 10 : 200), line.duration("idle-pause", Duration.ofMillis(100)),
				positive(line, "retry-jobs", smoke ? 1_000 : 200_000),
				positive(line, "backlog-small", smoke ? 2_000 : 10_000),
				positive(line, "backlog-large", smoke ? 10_000 : 1_000_000),
				line.duration("backlog-duration", smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(10)),
				line.duration("timeout", smoke ? Duration.ofMinutes(2) : Duration.ofMinutes(15)),
				line.flag("keep-tables", false), positive(line, "cron-schedules", smoke ? 200 : 10_000),
				line.duration("cron-idle", smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10)),
				(int) line.number("scheduled-ahead", 0), systems(line.list("systems", List.of(OJS))),
				positive(line, "cold-jobs", smoke ? 200 : 50_000), positive(line, "http-workers", 4),
				LimitOptions.parse(line, smoke), SoakOptions.parse(line, smoke),
				WorkflowOptions.parse(line, smoke));
		if (options.scheduledAhead() < 0) {
			throw new IllegalArgumentException("--scheduled-ahead must not be negative");
		}
		if (options.warmupRuns() < 0) {
			throw new IllegalArgumentException("--warmup-runs must not be negative");
		}
		if (options.rate() < 0) {
			throw new IllegalArgumentException("--rate must not be negative");
		}
		if (options.backlogSmall() < 2_000) {
			throw new IllegalArgumentException("--backlog-small must be at least 2000 (the backlog is refilled by 1000)");
		}
		return options;
	}

	private static List<String> systems(List<String> names) {
		List<String> known = new ArrayList<>(List.of(OJS));
		known.addAll(dev.ojs.bench.peer.Peer.NAMES);
		for (String name : names) {
			if (!known.contains(name)) {
				throw new IllegalArgumentException("Unknown system '" + name + "'; expected one of " + known);
			}
		}
		if (names.isEmpty() || names.stream().distinct().count() != names.size()) {
			throw new IllegalArgumentException("--systems must name each system once but was " + names);
		}
		return List.copyOf(names);
	}

	private static List<String> expand(List<String> names) {
		List<String> scenarios = new ArrayList<>();
		for (String name : names) {
			switch (name) {
				case "all" -> scenarios.addAll(ALL);
				case "enqueue" -> scenarios.addAll(List.of("enqueue-single", "enqueue-batch"));
				// not part of "all": it fills the database with a million jobs
				case "admin" -> scenarios.add(name);
				// not in all: it measures the HTTP binding, not the engine
				case "http" -> scenarios.add("http");
				// not in all: the database's own limit, and a load of half an hour by default
				case "limit", "soak" -> scenarios.add(name);
				// not in all: jobs that run for a time, so it measures the limit, not the engine
				case "limited" -> scenarios.add(name);
				// not in all: workflows at scale, several nodes and drains
				case "workflow" -> scenarios.add(name);
				default -> {
					if (!ALL.contains(name)) {
						throw new IllegalArgumentException(
								"Unknown scenario '" + name + "'; expected all, enqueue, admin, http, limit, limited, soak, workflow, chaos"
										+ " or one of " + ALL);
					}
					scenarios.add(name);
				}
			}
		}
		return List.copyOf(scenarios);
	}

	private static int positive(CommandLine line, String name, int defaultValue) {
		int value = line.integer(name, defaultValue);
		if (value <= 0) {
			throw new IllegalArgumentException("--" + name + " must be positive but was " + value);
		}
		return value;
	}

}

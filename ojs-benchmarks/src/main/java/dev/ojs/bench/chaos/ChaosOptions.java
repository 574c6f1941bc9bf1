package dev.ojs.bench.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.CommandLine;

/**
 * Parameters of a fault-injection run. The defaults are the full configuration of the
 * benchmark issue; {@code --short} is the CI configuration (2 workers, 1,000 jobs, 2 kills,
 * 1,000 bad inputs). Options given explicitly win over either.
 *
 * @param jdbcUrl the PostgreSQL database
 * @param workers worker processes running at once
 * @param jobs jobs enqueued
 * @param flakyPercent share of jobs whose first attempts fail
 * @param failAttempts how many first attempts of a flaky job fail
 * @param maxAttempts every job's {@code max_attempts}
 * @param badArgsJobs extra jobs whose args do not bind to the handler method
 * @param kills SIGKILLs of a random worker process
 * @param pgRestarts PostgreSQL restarts
 * @param pgRestart {@code auto} (restart when possible, else skip and say so),
 * {@code always} (fail when not possible) or {@code never}
 * @param badInputs malformed retry policies fed through each entry point
 * @param visibilityTimeout the workers' reservation length
 * @param concurrency each worker's concurrency
 * @param workMinMillis shortest handler run
 * @param workMaxMillis longest handler run
 * @param minEventGap least time between two injected faults
 * @param timeout the longest the run may take
 * @param seed random seed (job mix, bad inputs, kill targets)
 * @param logDirectory where the worker processes' output goes
 * @param keepTables keep the run's tables for inspection
 */
public record ChaosOptions(String jdbcUrl, int workers, int jobs, int flakyPercent, int failAttempts, int maxAttempts,
		int badArgsJobs, int kills, int pgRestarts, String pgRestart, int badInputs, Duration visibilityTimeout,
		int concurrency, int workMinMillis, int workMaxMillis, Duration minEventGap, Duration timeout, long seed,
		Path logDirectory, boolean keepTables) {

	static final String USAGE = """
			Usage: java -jar ojs-benchmarks.jar --scenario=chaos [options]
			   or: java -cp <classpath> dev.ojs.bench.chaos.ChaosCoordinator [options]
			  --jdbc-url=URL             PostgreSQL (default %s)
			  --short                    CI configuration: 2 workers, 1,000 jobs, 2 kills, 1,000 bad inputs
			  --workers=N (3)  --jobs=N (10k)  --flaky-percent=N (20)  --fail-attempts=N (2)  --max-attempts=N (5)
			  --bad-args-jobs=N (100)    jobs whose args do not bind to the handler
			  --kills=N (5)  --pg-restarts=N (1)  --pg-restart=auto|always|never (auto)
			  --bad-inputs=N (10k)       malformed retry policies through RetryPolicy.parse and OjsTemplate.enqueue
			  --visibility-timeout=DURATION (PT5S)  --concurrency=N (4)  --work-min-ms=N (10)  --work-max-ms=N (50)
			  --min-event-gap=DURATION (PT2S)  --timeout=DURATION (PT10M)  --seed=N  --log-dir=PATH  --keep-tables
			""".formatted(BenchDatabase.DEFAULT_URL);

	public static ChaosOptions parse(CommandLine line) {
		boolean small = line.flag("short", false);
		ChaosOptions options = new ChaosOptions(line.string("jdbc-url", BenchDatabase.DEFAULT_URL),
				line.integer("workers", small ? 2 : 3), line.integer("jobs", small ? 1_000 : 10_000),
				line.integer("flaky-percent", 20), line.integer("fail-attempts", 2), line.integer("max-attempts", 5),
				line.integer("bad-args-jobs", small ? 20 : 100), line.integer("kills", small ? 2 : 5),
				line.integer("pg-restarts", 1), line.string("pg-restart", "auto").toLowerCase(Locale.ROOT),
				line.integer("bad-inputs", small ? 1_000 : 10_000),
				line.duration("visibility-timeout", Duration.ofSeconds(5)), line.integer("concurrency", 4),
				line.integer("work-min-ms", small ? 20 : 10), line.integer("work-max-ms", small ? 80 : 50),
				line.duration("min-event-gap", small ? Duration.ofMillis(1500) : Duration.ofSeconds(2)),
				line.duration("timeout", Duration.ofMinutes(10)), line.number("seed", System.nanoTime()),
				Path.of(line.string("log-dir", System.getProperty("java.io.tmpdir") + "/ojs-chaos")),
				line.flag("keep-tables", false));
		if (options.workers() < 2) {
			throw new IllegalArgumentException("--workers must be at least 2 (one survives each kill)");
		}
		if (options.jobs() < 1 || options.maxAttempts() < 1 || options.workMinMillis() < 0
				|| options.workMaxMillis() < options.workMinMillis()) {
			throw new IllegalArgumentException("--jobs, --max-attempts must be positive, work-min-ms <= work-max-ms");
		}
		if (options.failAttempts() >= options.maxAttempts()) {
			throw new IllegalArgumentException("--fail-attempts must be below --max-attempts so flaky jobs can succeed");
		}
		if (!options.pgRestart().matches("auto|always|never")) {
			throw new IllegalArgumentException("--pg-restart must be auto, always or never");
		}
		return options;
	}

	/** The partial retry policy every job is enqueued with: small backoff, jitter on. */
	public String retryPolicyJson() {
		return "{\"max_attempts\":" + this.maxAttempts
				+ ",\"initial_interval\":\"PT0.1S\",\"backoff_coefficient\":2.0,\"max_interval\":\"PT1S\"}";
	}

}

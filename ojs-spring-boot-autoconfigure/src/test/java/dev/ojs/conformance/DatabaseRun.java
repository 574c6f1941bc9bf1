package dev.ojs.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.ojs.testsupport.TestDatabases;

/**
 * The suite on one database, in a thread of its own: an application of its own (a random
 * port, tables of a random prefix, dropped when it closes) that runs every case one after
 * the other on a store emptied before each ({@link JobTables}). Loopback clients need no
 * token ({@code ojs.http.allow-unauthenticated-loopback}), as the cases send none. The
 * report ({@link ConformanceReport}) is printed and written once the last case has run.
 */
final class DatabaseRun {

	/** The longest one request may take (the reference runner's default is 30 s). */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

	/** Applications start one at a time (each initializes the JVM's one logging system). */
	private static final Object STARTING = new Object();

	/** How one case counts, and what its dynamic test reports. */
	record Outcome(ConformanceReport.Verdict verdict, String message) {

		/** Passes, fails or skips the calling test as the lists of known cases say. */
		void check() {
			switch (this.verdict) {
				case PASSED -> {
				}
				case KNOWN_GAP, UNPASSABLE -> Assumptions.abort(this.message);
				default -> Assertions.fail(this.message);
			}
		}

	}

	private DatabaseRun() {
	}

	/**
	 * Starts the run: the outcomes come in the order of {@code cases}, then the check of the
	 * manifest's declared level.
	 */
	static CompletableFuture<List<Outcome>> start(TestDatabases.Kind kind, List<ConformanceCase> cases,
			KnownCases known, Path suites) {
		CompletableFuture<List<Outcome>> outcomes = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				outcomes.complete(run(kind, cases, known, suites));
			}
			catch (Throwable ex) {
				outcomes.completeExceptionally(ex);
			}
		}, "conformance-" + kind.name().toLowerCase(Locale.ROOT));
		thread.setDaemon(true);
		thread.start();
		return outcomes;
	}

	private static List<Outcome> run(TestDatabases.Kind kind, List<ConformanceCase> cases, KnownCases known,
			Path suites) {
		String prefix = "c" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
		ConformanceReport report = new ConformanceReport(kind.name(), suites);
		try (ConfigurableApplicationContext context = application(kind, prefix)) {
			int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			StepExecutor executor = new StepExecutor("http://127.0.0.1:" + port, REQUEST_TIMEOUT);
			JobTables tables = new JobTables(context.getBean(DataSource.class), prefix);
			List<Outcome> outcomes = new ArrayList<>();
			for (ConformanceCase testCase : cases) {
				outcomes.add(run(kind, testCase, known, executor, tables, report));
			}
			outcomes.add(declaredLevel(kind, port, report));
			return outcomes;
		}
		finally {
			report.publish();
		}
	}

	private static ConfigurableApplicationContext application(TestDatabases.Kind kind, String prefix) {
		synchronized (STARTING) {
			return new SpringApplicationBuilder(ConformanceTestApplication.class).run("--server.port=0",
					"--test.database=" + kind.name(), "--ojs.jdbc.table-prefix=" + prefix, "--ojs.http.enabled=true",
					"--ojs.http.allow-unauthenticated-loopback=true", "--ojs.dashboard.enabled=true",
					"--ojs.dashboard.read-only=false", "--ojs.dashboard.allow-unauthenticated-loopback=true",
					"--ojs.jdbc.initialize-schema=always",
					"--ojs.worker.poll-interval=50ms", "--ojs.worker.shutdown-grace-period=2s");
		}
	}

	/**
	 * Follows the last case's outcome: whether the manifest's {@code conformance_level} is
	 * the level this run reached (ojs-conformance.md: a server declares only what passes).
	 */
	private static Outcome declaredLevel(TestDatabases.Kind kind, int port, ConformanceReport report) {
		String declared;
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ojs/manifest"))
					.timeout(REQUEST_TIMEOUT)
					.build(), HttpResponse.BodyHandlers.ofString());
			declared = new JsonMapper().readTree(response.body()).path("conformance_level").asString();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		String reached = report.reachedLevel();
		return declared.equals(reached) ? new Outcome(ConformanceReport.Verdict.PASSED, "")
				: new Outcome(ConformanceReport.Verdict.FAILED, kind.name() + ": the manifest declares conformance_level "
						+ declared + ", the suite reached " + reached);
	}

	private static Outcome run(TestDatabases.Kind kind, ConformanceCase testCase, KnownCases known, StepExecutor executor, JobTables tables,
			ConformanceReport report) {
		String title = kind.name() + ": " + testCase.id() + " " + testCase.name();
		String unpassable = known.unpassable(testCase);
		if (unpassable != null) {
			report.unpassable(testCase, unpassable);
			return new Outcome(ConformanceReport.Verdict.UNPASSABLE, "Unpassable as written: " + unpassable);
		}
		tables.empty();
		CaseResult result = executor.run(testCase);
		String gap = known.gap(testCase);
		ConformanceReport.Verdict verdict = report.add(result, gap);
		String failures = result.failures().stream().map(Failure::describe).collect(Collectors.joining("\n"));
		return new Outcome(verdict, switch (verdict) {
			case PASSED -> "";
			case PASSES_NOW -> title + " passes now: remove it from known-gaps.txt (" + gap + ")";
			case KNOWN_GAP -> "Known gap: " + gap + "\n" + failures;
			default -> title + " failed:\n" + failures;
		});
	}

}

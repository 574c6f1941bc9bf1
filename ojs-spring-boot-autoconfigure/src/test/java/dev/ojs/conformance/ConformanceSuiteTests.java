package dev.ojs.conformance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInfo;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.ojs.testsupport.TestDatabases;

/**
 * The official OJS conformance suite, levels 0–4 ({@code ../shared/ojs-conformance}, see
 * {@link ConformanceSuites}), over the HTTP binding of an application on a random port: one
 * dynamic test per case, run one after the other on a store emptied before each
 * ({@link JobTables}). Loopback clients need no token
 * ({@code ojs.http.allow-unauthenticated-loopback}), as the cases send none. A case listed in
 * {@code conformance/known-gaps.txt} is skipped with its gap while it fails and fails the
 * build once it passes; the ones in {@code conformance/unpassable.txt} are skipped with
 * their reason. The report ({@link ConformanceReport}) is printed after the class and written
 * to {@code target/conformance/}. Subclasses choose the database.
 */
@SpringBootTest(classes = ConformanceTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.allow-unauthenticated-loopback=true",
				"ojs.jdbc.initialize-schema=always", "ojs.worker.poll-interval=50ms",
				"ojs.worker.shutdown-grace-period=2s" })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ConformanceSuiteTests {

	/** The longest one request may take (the reference runner's default is 30 s). */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

	private static final Map<Class<?>, ConformanceReport> reports = new ConcurrentHashMap<>();

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Value("${ojs.jdbc.table-prefix}")
	String tablePrefix;

	@Value("${test.database}")
	String database;

	/** Points the application at a database, with a table prefix of its own. */
	static void configure(DynamicPropertyRegistry registry, TestDatabases.Kind kind) {
		String prefix = "c" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
		registry.add("test.database", kind::name);
		registry.add("ojs.jdbc.table-prefix", () -> prefix);
	}

	@TestFactory
	Stream<DynamicNode> conformanceSuite() {
		if (!ConformanceSuites.present()) {
			return Stream.of(DynamicTest.dynamicTest("OJS conformance cases", ConformanceSuites::missing));
		}
		Path suites = ConformanceSuites.location();
		List<ConformanceCase> cases = ConformanceCases.load(suites, 4);
		KnownCases known = KnownCases.load();
		StepExecutor executor = new StepExecutor("http://127.0.0.1:" + this.port, REQUEST_TIMEOUT);
		JobTables tables = new JobTables(this.dataSource, this.tablePrefix);
		ConformanceReport report = new ConformanceReport(this.database, suites);
		reports.put(getClass(), report);
		DynamicTest lists = DynamicTest.dynamicTest("known-gaps.txt and unpassable.txt name cases of the suite",
				() -> Assertions.assertEquals(List.of(), known.strangers(cases), "entries that name no case"));
		return Stream.concat(Stream.of(lists), IntStream.rangeClosed(0, 4)
			.mapToObj((level) -> DynamicContainer.dynamicContainer("Level " + level,
					cases.stream()
						.filter((testCase) -> testCase.level() == level)
						.map((testCase) -> DynamicTest.dynamicTest(testCase.id() + " " + testCase.name(),
								testCase.source().toUri(), () -> run(testCase, known, executor, tables, report))))));
	}

	@AfterAll
	static void report(TestInfo info) {
		ConformanceReport report = reports.remove(info.getTestClass().orElseThrow());
		if (report != null) {
			report.publish();
		}
	}

	private static void run(ConformanceCase testCase, KnownCases known, StepExecutor executor, JobTables tables,
			ConformanceReport report) {
		String unpassable = known.unpassable(testCase);
		if (unpassable != null) {
			report.unpassable(testCase, unpassable);
			Assumptions.abort("Unpassable as written: " + unpassable);
		}
		tables.empty();
		CaseResult result = executor.run(testCase);
		String gap = known.gap(testCase);
		ConformanceReport.Verdict verdict = report.add(result, gap);
		String failures = result.failures().stream().map(Failure::describe).collect(Collectors.joining("\n"));
		switch (verdict) {
			case PASSED -> {
			}
			case PASSES_NOW -> Assertions.fail(testCase.id() + " " + testCase.name() + " passes now: remove it from known-gaps.txt (" + gap + ")");
			case KNOWN_GAP -> Assumptions.abort("Known gap: " + gap + "\n" + failures);
			default -> Assertions.fail(testCase.id() + " " + testCase.name() + " failed:\n" + failures);
		}
	}

}

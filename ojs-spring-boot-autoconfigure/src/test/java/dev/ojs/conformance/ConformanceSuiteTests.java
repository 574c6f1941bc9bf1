package dev.ojs.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.ojs.testsupport.TestDatabases;

/**
 * The official OJS conformance suite, levels 0–4 ({@code ../shared/ojs-conformance}, see
 * {@link ConformanceSuites}), over the HTTP binding on H2, PostgreSQL and MariaDB at the same
 * time: each database has its application and runs its cases one after the other
 * ({@link DatabaseRun}); the dynamic tests (database, level, case) then report what each
 * case did. A case listed in {@code conformance/known-gaps.txt} is skipped with its gap while
 * it fails and fails the build once it passes; the ones in {@code conformance/unpassable.txt}
 * are skipped with their reason. A database that is not reachable is skipped with the reason
 * (failed under {@code CI=true}) while the others run.
 */
class ConformanceSuiteTests {

	/** The longest the tests wait for a database's run, far beyond its few minutes. */
	private static final long RUN_TIMEOUT_MINUTES = 30;

	@TestFactory
	Stream<DynamicNode> conformanceSuite() {
		if (!ConformanceSuites.present()) {
			return Stream.of(DynamicTest.dynamicTest("OJS conformance cases", ConformanceSuites::missing));
		}
		Path suites = ConformanceSuites.location();
		List<ConformanceCase> cases = ConformanceCases.load(suites, 4);
		KnownCases known = KnownCases.load();
		List<DynamicNode> nodes = new ArrayList<>();
		nodes.add(DynamicTest.dynamicTest("known-gaps.txt and unpassable.txt name cases of the suite",
				() -> Assertions.assertEquals(List.of(), known.strangers(cases), "entries that name no case")));
		for (TestDatabases.Kind kind : TestDatabases.Kind.values()) {
			Throwable unreachable = unreachable(kind);
			if (unreachable != null) {
				nodes.add(DynamicTest.dynamicTest(kind.name(), () -> {
					throw unreachable;
				}));
				continue;
			}
			CompletableFuture<List<DatabaseRun.Outcome>> run = DatabaseRun.start(kind, cases, known, suites);
			nodes.add(DynamicContainer.dynamicContainer(kind.name(), IntStream.rangeClosed(0, 4)
				.mapToObj((level) -> DynamicContainer.dynamicContainer("Level " + level,
						IntStream.range(0, cases.size())
							.filter((index) -> cases.get(index).level() == level)
							.mapToObj((index) -> DynamicTest.dynamicTest(
									cases.get(index).id() + " " + cases.get(index).name(),
									cases.get(index).source().toUri(), () -> outcomes(run).get(index).check()))))));
			nodes.add(DynamicTest.dynamicTest(kind.name() + ": the manifest declares the level reached",
					() -> outcomes(run).get(cases.size()).check()));
		}
		return nodes.stream();
	}

	/** Why the database cannot be used (a skip, or under {@code CI=true} a failure), or {@code null}. */
	private static @Nullable Throwable unreachable(TestDatabases.Kind kind) {
		try {
			TestDatabases.database(kind);
			return null;
		}
		catch (RuntimeException | AssertionError ex) {
			return ex;
		}
	}

	private static List<DatabaseRun.Outcome> outcomes(CompletableFuture<List<DatabaseRun.Outcome>> run)
			throws Throwable {
		try {
			return run.get(RUN_TIMEOUT_MINUTES, TimeUnit.MINUTES);
		}
		catch (ExecutionException ex) {
			throw ex.getCause();
		}
	}

}

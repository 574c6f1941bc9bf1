package dev.ojs.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edges (HTTP binding, Admin API, dashboard, actuator) reach jobs, queues, recurring jobs and
 * workers through the services of {@code dev.ojs.spring} only (issue 27, item 2): no class
 * of {@code dev.ojs.web..} or {@code dev.ojs.spring.actuate} names the stores
 * ({@code JobStore}, {@code AdminStore}, {@code RecurringJobStore}) or anything of
 * {@code dev.ojs.jdbc}. Read from the source files.
 */
class EdgeDependenciesTests {

	private static final Path SOURCES = Path.of("src/main/java");

	private static final List<String> EDGE_PACKAGES = List.of("dev/ojs/web", "dev/ojs/spring/actuate");

	/** A store type or the JDBC package, named in an import or in code. */
	private static final Pattern STORE = Pattern.compile(
			"\\bdev\\.ojs\\.(job\\.JobStore|admin\\.AdminStore|recurring\\.RecurringJobStore|jdbc\\.[\\w*]+)\\b"
					+ "|\\bimport\\s+dev\\.ojs\\.(job|admin|recurring)\\.\\*;");

	@Test
	void edgesDoNotReachTheStores() throws IOException {
		Map<String, List<String>> reaching = reachingTheStores();
		assertThat(reaching).as("edges naming a store or dev.ojs.jdbc").isEmpty();
	}

	/** The edge source files naming a store, with what they name. */
	private static Map<String, List<String>> reachingTheStores() throws IOException {
		Map<String, List<String>> reaching = new TreeMap<>();
		int read = 0;
		for (String edgePackage : EDGE_PACKAGES) {
			try (Stream<Path> files = Files.walk(SOURCES.resolve(edgePackage))) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					List<String> found = STORE.matcher(Files.readString(file)).results().map(MatchResult::group).toList();
					if (!found.isEmpty()) {
						reaching.put(SOURCES.relativize(file).toString().replace('\\', '/'), found);
					}
					read++;
				}
			}
		}
		assertThat(read).as("edge source files read").isGreaterThan(50);
		return reaching;
	}

}

package dev.ojs.conformance;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the conformance cases are: system property {@value #PROPERTY}, else env
 * {@value #ENVIRONMENT}, else {@code ../shared/ojs-conformance/suites} next to the
 * repository's root (the folder of {@code mvnw}, found from the working directory up).
 * When the folder is missing the tests are skipped with the reason, and fail under
 * {@code CI=true}.
 */
final class ConformanceSuites {

	static final String PROPERTY = "ojs.conformance.suites";

	static final String ENVIRONMENT = "OJS_CONFORMANCE_SUITES";

	private ConformanceSuites() {
	}

	/** Whether the suites folder is there. */
	static boolean present() {
		return Files.isDirectory(location());
	}

	/** Skips the calling test (under {@code CI=true}: fails it), saying where the cases were looked for. */
	static void missing() {
		String message = "The OJS conformance cases are not at " + location() + ": set -D" + PROPERTY + " or "
				+ ENVIRONMENT + " to the suites folder of ojs-conformance";
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(message + " (CI=true: not skipping)");
		}
		Assumptions.abort(message);
	}

	/** The suites folder, whether or not it is there. */
	static Path location() {
		String configured = System.getProperty(PROPERTY);
		if (configured == null || configured.isBlank()) {
			configured = System.getenv(ENVIRONMENT);
		}
		if (configured != null && !configured.isBlank()) {
			return Path.of(configured).toAbsolutePath().normalize();
		}
		Path root = Path.of("").toAbsolutePath();
		while (root.getParent() != null && !Files.exists(root.resolve("mvnw"))) {
			root = root.getParent();
		}
		return root.resolveSibling("shared").resolve("ojs-conformance").resolve("suites").normalize();
	}

}

package dev.ojs.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL database the module's tests use, chosen like the starter's own tests:
 * {@code OJS_TEST_POSTGRES_URL} when set, else the local service's {@code test} database.
 * When it cannot be reached the test is skipped, except with {@code CI=true}, where it fails.
 */
public final class BenchTestDatabase {

	static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

	private BenchTestDatabase() {
	}

	/** The URL of a reachable database, or the test is skipped (failed on CI). */
	public static String postgresUrl() {
		String configured = System.getenv("OJS_TEST_POSTGRES_URL");
		String url = (configured != null && !configured.isBlank()) ? configured : LOCAL_URL;
		try (Connection connection = DriverManager.getConnection(url)) {
			return url;
		}
		catch (SQLException ex) {
			String message = "PostgreSQL not reachable at " + url + ": " + ex.getMessage();
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(message + " (required with CI=true)", ex);
			}
			Assumptions.abort(message);
			return null;
		}
	}

}

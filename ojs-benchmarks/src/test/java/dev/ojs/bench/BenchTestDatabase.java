package dev.ojs.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL (and MariaDB) database the module's tests use, chosen like the starter's own
 * tests: {@code OJS_TEST_POSTGRES_URL} ({@code OJS_TEST_MARIADB_URL}) when set, else the local
 * service's {@code test} database.
 * When it cannot be reached the test is skipped, except with {@code CI=true}, where it fails.
 */
public final class BenchTestDatabase {

	static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

	static final String LOCAL_MARIADB_URL = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

	private BenchTestDatabase() {
	}

	/** The URL of a reachable database, or the test is skipped (failed on CI). */
	public static String postgresUrl() {
		return reachable("OJS_TEST_POSTGRES_URL", LOCAL_URL);
	}

	/** The URL of a reachable MariaDB database, or the test is skipped (failed on CI). */
	public static String mariaDbUrl() {
		return reachable("OJS_TEST_MARIADB_URL", LOCAL_MARIADB_URL);
	}

	private static String reachable(String variable, String localUrl) {
		String configured = System.getenv(variable);
		String url = (configured != null && !configured.isBlank()) ? configured : localUrl;
		try (Connection connection = DriverManager.getConnection(url)) {
			return url;
		}
		catch (SQLException ex) {
			String message = "Database not reachable at " + url + ": " + ex.getMessage();
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(message + " (required with CI=true)", ex);
			}
			Assumptions.abort(message);
			return null;
		}
	}

}

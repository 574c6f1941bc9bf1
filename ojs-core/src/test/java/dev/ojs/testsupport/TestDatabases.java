package dev.ojs.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;

/**
 * The databases integration tests run against, found in this order:
 * <ol>
 * <li>the URL in env {@code OJS_TEST_POSTGRES_URL} / {@code OJS_TEST_MARIADB_URL} (must be
 * reachable when set);</li>
 * <li>the local service: {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres},
 * {@code jdbc:mariadb://127.0.0.1:3306/test?user=root};</li>
 * <li>a Testcontainers container when Docker works;</li>
 * <li>otherwise the test is skipped (a JUnit assumption), except with env {@code CI=true},
 * where it fails.</li>
 * </ol>
 * H2 is always available (in memory). Each database is opened once per JVM with a small
 * Hikari pool. Isolation: every test class takes its own {@link #schema(Kind) schema} — a
 * random table prefix — and closes it afterwards, which drops its table.
 */
public final class TestDatabases {

	/** The supported test databases. */
	public enum Kind {

		H2, POSTGRESQL, MARIADB

	}

	/**
	 * An open test database.
	 *
	 * @param kind which database
	 * @param jdbcUrl its URL (user and password included where the URL carries them)
	 * @param username user name, or {@code null} when in the URL
	 * @param password password, or {@code null} when in the URL
	 * @param dataSource a pooled data source shared by the whole JVM (never close it)
	 */
	public record Database(Kind kind, String jdbcUrl, String username, String password, DataSource dataSource) {
	}

	private static final Map<Kind, Database> databases = new ConcurrentHashMap<>();

	private static final String LOCAL_POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

	private static final String LOCAL_MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

	private static final int POOL_SIZE = 16;

	private TestDatabases() {
	}

	/**
	 * The database of this kind, or a skipped (with {@code CI=true}: failed) test when none
	 * is reachable.
	 */
	public static Database database(Kind kind) {
		Database database = databases.get(kind);
		if (database == null) {
			synchronized (databases) {
				database = databases.computeIfAbsent(kind, TestDatabases::open);
			}
		}
		return database;
	}

	/** A fresh, empty job table with a random prefix in the database of this kind. */
	public static Schema schema(Kind kind) {
		Database database = database(kind);
		String prefix = "t" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36) + "_";
		JdbcSchema.create(database.dataSource(), new JdbcStoreSettings(prefix));
		return new Schema(database, prefix);
	}

	private static Database open(Kind kind) {
		return switch (kind) {
			case H2 -> pooled(kind, "jdbc:h2:mem:ojs_test;DB_CLOSE_DELAY=-1", "sa", "");
			case POSTGRESQL -> external(kind, "OJS_TEST_POSTGRES_URL", LOCAL_POSTGRES, "connectTimeout=3");
			case MARIADB -> external(kind, "OJS_TEST_MARIADB_URL", LOCAL_MARIADB, "connectTimeout=3000");
		};
	}

	private static Database external(Kind kind, String env, String local, String timeout) {
		String url = System.getenv(env);
		if (url != null && !url.isBlank()) {
			String problem = unreachable(url, timeout);
			if (problem != null) {
				Assertions.fail(env + " is set but " + url + " is not reachable: " + problem);
			}
			return pooled(kind, url, null, null);
		}
		if (unreachable(local, timeout) == null) {
			return pooled(kind, local, null, null);
		}
		if (dockerAvailable()) {
			JdbcDatabaseContainer<?> container = (kind == Kind.POSTGRESQL) ? new PostgreSQLContainer("postgres:16-alpine")
					: new MariaDBContainer("mariadb:10.11");
			container.start();
			return pooled(kind, container.getJdbcUrl(), container.getUsername(), container.getPassword());
		}
		String message = kind + " is not reachable: set " + env + ", run it on localhost, or make Docker available";
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(message + " (CI=true: not skipping)");
		}
		Assumptions.abort(message);
		throw new IllegalStateException(message);
	}

	private static String unreachable(String url, String timeout) {
		String probe = url + (url.contains("?") ? "&" : "?") + timeout;
		try (Connection connection = DriverManager.getConnection(probe)) {
			return connection.isValid(3) ? null : "connection not valid";
		}
		catch (SQLException ex) {
			return ex.getMessage();
		}
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	private static Database pooled(Kind kind, String url, String username, String password) {
		HikariConfig config = new HikariConfig();
		config.setPoolName("ojs-test-" + kind.name().toLowerCase(Locale.ROOT));
		config.setJdbcUrl(url);
		config.setUsername(username);
		config.setPassword(password);
		config.setMaximumPoolSize(POOL_SIZE);
		config.setMinimumIdle(2);
		config.setConnectionTimeout(10_000);
		return new Database(kind, url, username, password, new HikariDataSource(config));
	}

	/**
	 * A job table with its own prefix; {@link #close()} drops it.
	 */
	public static final class Schema implements AutoCloseable {

		private final Database database;

		private final String tablePrefix;

		private Schema(Database database, String tablePrefix) {
			this.database = database;
			this.tablePrefix = tablePrefix;
		}

		public Database database() {
			return this.database;
		}

		public DataSource dataSource() {
			return this.database.dataSource();
		}

		/** The random table prefix, e.g. {@code "t1x9k2m_"}. */
		public String tablePrefix() {
			return this.tablePrefix;
		}

		/** {@code <prefix>jobs}. */
		public String tableName() {
			return this.tablePrefix + "jobs";
		}

		/** Store settings with this prefix. */
		public JdbcStoreSettings settings() {
			return new JdbcStoreSettings(this.tablePrefix);
		}

		/** A store on this table. */
		public JdbcJobStore newStore() {
			return new JdbcJobStore(dataSource(), settings());
		}

		/** Deletes every job, keeping the table. */
		public void clear() {
			new org.springframework.jdbc.core.JdbcTemplate(dataSource()).update("DELETE FROM " + tableName());
		}

		@Override
		public void close() {
			JdbcSchema.drop(dataSource(), settings());
		}

	}

}

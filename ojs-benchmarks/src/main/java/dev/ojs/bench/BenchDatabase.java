package dev.ojs.bench;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The database a benchmark or harness run uses, PostgreSQL or (for the scenarios that say so)
 * MariaDB: creates it when missing, makes fresh table prefixes, and drops a prefix's tables and
 * functions afterwards.
 */
public final class BenchDatabase {

	/** The local PostgreSQL service, database {@code ojs_bench}. */
	public static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/ojs_bench?user=postgres";

	private static final Pattern URL = Pattern.compile("(jdbc:(?:postgresql|mariadb|mysql)://[^/?]+/)([^?]*)(\\?.*)?");

	private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

	private static final SecureRandom RANDOM = new SecureRandom();

	private BenchDatabase() {
	}

	/** Whether the URL names a MariaDB (or MySQL) server rather than PostgreSQL. */
	public static boolean isMariaDb(String jdbcUrl) {
		return jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:");
	}

	/** The database name of a {@code jdbc:postgresql|mariadb://host[:port]/name[?params]} URL. */
	public static String databaseName(String jdbcUrl) {
		return url(jdbcUrl).group(2);
	}

	/** The same URL (host, port, parameters) naming another database. */
	public static String withDatabase(String jdbcUrl, String database) {
		Matcher matcher = url(jdbcUrl);
		return matcher.group(1) + database + ((matcher.group(3) != null) ? matcher.group(3) : "");
	}

	private static Matcher url(String jdbcUrl) {
		Matcher matcher = URL.matcher(jdbcUrl);
		if (!matcher.matches()) {
			throw new IllegalArgumentException(
					"Not a jdbc:postgresql:// or jdbc:mariadb://host[:port]/database URL: " + jdbcUrl);
		}
		return matcher;
	}

	/**
	 * Connects once; when the database does not exist (SQLSTATE 3D000), creates it through the
	 * {@code postgres} maintenance database of the same server.
	 * @param jdbcUrl a PostgreSQL URL
	 * @return {@code true} when the database was created
	 * @throws SQLException when the server cannot be reached
	 */
	public static boolean ensureDatabase(String jdbcUrl) throws SQLException {
		try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
			return false;
		}
		catch (SQLException ex) {
			// 3D000: PostgreSQL's, 42000 with error 1049: MariaDB's unknown database
			if (!"3D000".equals(ex.getSQLState()) && ex.getErrorCode() != 1049) {
				throw ex;
			}
		}
		String name = databaseName(jdbcUrl);
		if (!IDENTIFIER.matcher(name).matches()) {
			throw new IllegalArgumentException("Will only create databases named [a-z_][a-z0-9_]*, not " + name);
		}
		boolean mariaDb = isMariaDb(jdbcUrl);
		try (Connection connection = DriverManager.getConnection(withDatabase(jdbcUrl, mariaDb ? "" : "postgres"));
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + (mariaDb ? "IF NOT EXISTS " : "") + name);
			return true;
		}
		catch (SQLException ex) {
			if ("42P04".equals(ex.getSQLState())) { // created concurrently
				return false;
			}
			throw ex;
		}
	}
	/**
	 * A fresh random table prefix such as {@code bench_k3x9q2_}: a valid identifier of at most
	 * 40 characters, ending with {@code _}.
	 * @param stem lowercase letters, digits and underscores, starting with a letter
	 * @return the prefix
	 */
	public static String newTablePrefix(String stem) {
		String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
		StringBuilder prefix = new StringBuilder(stem.toLowerCase(Locale.ROOT)).append('_');
		for (int i = 0; i < 6; i++) {
			prefix.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
		}
		prefix.append('_');
		if (!IDENTIFIER.matcher(prefix).matches() || prefix.length() > 40) {
			throw new IllegalArgumentException("Invalid table prefix stem: " + stem);
		}
		return prefix.toString();
	}

	/** A Hikari pool on the URL. */
	public static HikariDataSource dataSource(String jdbcUrl, int maximumPoolSize, String poolName) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl);
		config.setMaximumPoolSize(maximumPoolSize);
		config.setPoolName(poolName);
		return awaitFilled(new HikariDataSource(config));
	}

	/**
	 * Waits (up to 30 s) until the pool holds all its connections. Hikari opens them in the
	 * background after the first one, and opening a PostgreSQL connection costs both
	 * processes CPU, which a measured window must not pay for.
	 * @param dataSource the pool
	 * @return the pool
	 */
	public static HikariDataSource awaitFilled(HikariDataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			// starts a pool that opens on first use
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot connect to " + dataSource.getJdbcUrl(), ex);
		}
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (dataSource.getHikariPoolMXBean().getTotalConnections() < dataSource.getMaximumPoolSize()
				&& System.nanoTime() < deadline) {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		return dataSource;
	}

	/**
	 * Drops every table, view and function in the current schema whose name starts with the
	 * prefix (the job table, its helpers, and the harness's side tables).
	 * @param dataSource the database
	 * @param prefix a prefix from {@link #newTablePrefix(String)}
	 * @return the dropped objects
	 * @throws SQLException on database errors
	 */
	public static List<String> dropPrefixed(DataSource dataSource, String prefix) throws SQLException {
		if (!IDENTIFIER.matcher(prefix).matches()) {
			throw new IllegalArgumentException("Invalid prefix: " + prefix);
		}
		List<String> dropped = new ArrayList<>();
		try (Connection connection = dataSource.getConnection()) {
			if (isMariaDb(connection.getMetaData().getURL())) {
				for (String table : names(connection, "SELECT table_name FROM information_schema.tables"
						+ " WHERE table_schema = database() AND left(table_name, length(?)) = ?", prefix)) {
					try (Statement statement = connection.createStatement()) {
						statement.execute("DROP TABLE IF EXISTS `" + table + "`");
					}
					dropped.add(table);
				}
				return dropped;
			}
			// a peer's statistics views first, then the tables
			for (String kind : List.of("VIEW", "TABLE")) {
				for (String table : names(connection, "SELECT table_name FROM information_schema.tables"
						+ " WHERE table_schema = current_schema() AND left(table_name, length(?)) = ?"
						+ " AND (table_type = 'VIEW') = " + kind.equals("VIEW"), prefix)) {
					try (Statement statement = connection.createStatement()) {
						statement.execute("DROP " + kind + " IF EXISTS \"" + table + "\" CASCADE");
					}
					dropped.add(table);
				}
			}
			for (String function : names(connection,
					"SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
							+ " WHERE n.nspname = current_schema() AND left(p.proname, length(?)) = ?",
					prefix)) {
				try (Statement statement = connection.createStatement()) {
					statement.execute("DROP FUNCTION IF EXISTS " + function + " CASCADE");
				}
				dropped.add(function);
			}
		}
		return dropped;
	}

	private static List<String> names(Connection connection, String sql, String prefix) throws SQLException {
		List<String> names = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, prefix);
			statement.setString(2, prefix);
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					names.add(rows.getString(1));
				}
			}
		}
		return names;
	}

}

package dev.ojs.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The job table's DDL. Scripts live on the classpath at
 * {@code dev/ojs/jdbc/schema-{postgresql,mariadb,mysql,h2}.sql}, written for the default
 * prefix {@code ojs_}; this class substitutes the prefix of {@link JdbcStoreSettings} (which
 * validates it) into the table and index names. Every statement is
 * {@code IF NOT EXISTS}, so creating twice is harmless. {@link #verify} tells at start-up
 * whether the tables exist.
 */
public final class JdbcSchema {

	private static final String DEFAULT_PREFIX = "ojs_";

	/** Every {@code ojs_<name>} identifier: the tables and the index names derived from them. */
	private static final Pattern TABLE_NAME = Pattern.compile("\\b" + DEFAULT_PREFIX + "(?=[a-z])");

	private JdbcSchema() {
	}

	/** Classpath location of a platform's script. */
	public static String location(JdbcPlatform platform) {
		return "dev/ojs/jdbc/schema-" + platform.id() + ".sql";
	}

	/** A platform's script with the settings' table prefix substituted for {@code ojs_}. */
	public static String script(JdbcPlatform platform, JdbcStoreSettings settings) {
		String location = location(platform);
		try (InputStream in = JdbcSchema.class.getClassLoader().getResourceAsStream(location)) {
			if (in == null) {
				throw new IllegalStateException("Schema script not found: " + location);
			}
			String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return TABLE_NAME.matcher(script).replaceAll(Matcher.quoteReplacement(settings.tablePrefix()));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read schema script " + location, ex);
		}
	}

	/** Creates the OJS tables and their indexes when missing, for the detected platform. */
	public static void create(DataSource dataSource, JdbcStoreSettings settings) {
		String script = script(JdbcPlatform.detect(dataSource), settings);
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			ScriptUtils.executeSqlScript(connection, new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8),
					"OJS schema for " + settings.tablePrefix()));
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}

	/** Drops the OJS tables that exist. */
	public static void drop(DataSource dataSource, JdbcStoreSettings settings) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		for (String table : tables(settings)) {
			jdbc.execute("DROP TABLE IF EXISTS " + table);
		}
	}

	/**
	 * Fails when a table of the store does not exist, naming every missing one. Reads the
	 * connection's metadata only (no statement on the tables): the current catalog, any
	 * schema, names as the database stores unquoted identifiers.
	 * @throws MissingTablesException when a table is missing
	 * @throws CannotGetJdbcConnectionException when the metadata cannot be read
	 */
	public static void verify(DataSource dataSource, JdbcStoreSettings settings) {
		List<String> missing = new ArrayList<>(tables(settings));
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			DatabaseMetaData metaData = connection.getMetaData();
			Set<String> present = new HashSet<>();
			String escape = metaData.getSearchStringEscape();
			String pattern = stored(metaData, settings.tablePrefix()).replace("_", escape + "_").replace("%", escape + "%")
					+ "%";
			try (ResultSet tables = metaData.getTables(connection.getCatalog(), null, pattern, null)) {
				while (tables.next()) {
					present.add(tables.getString("TABLE_NAME"));
				}
			}
			for (String table : tables(settings)) {
				if (present.contains(stored(metaData, table))) {
					missing.remove(table);
				}
			}
		}
		catch (SQLException ex) {
			throw new CannotGetJdbcConnectionException("Cannot read the tables of the database", ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
		if (!missing.isEmpty()) {
			throw new MissingTablesException(missing, JdbcPlatform.detect(dataSource), settings.tablePrefix());
		}
	}

	/** Every table the schema script creates. */
	static List<String> tables(JdbcStoreSettings settings) {
		return List.of(settings.tableName(), settings.errorsTableName(), settings.handlersTableName(),
				settings.schedulesTableName(), settings.leasesTableName(), settings.queuesTableName(),
				settings.nodesTableName(), settings.statsTableName(),
				settings.resultsTableName(), settings.workflowsTableName(), settings.limitsTableName());
	}

	/** An unquoted identifier as the database stores it. */
	private static String stored(DatabaseMetaData metaData, String identifier) throws SQLException {
		if (metaData.storesUpperCaseIdentifiers()) {
			return identifier.toUpperCase(Locale.ROOT);
		}
		return metaData.storesLowerCaseIdentifiers() ? identifier.toLowerCase(Locale.ROOT) : identifier;
	}

}

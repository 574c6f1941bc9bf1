package dev.ojs.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The job table's DDL. Scripts live on the classpath at
 * {@code dev/ojs/jdbc/schema-{postgresql,mariadb,mysql,h2}.sql}, written for the default
 * prefix {@code ojs_}; this class substitutes the prefix of {@link JdbcStoreSettings} (which
 * validates it) into the table and index names. Every statement is
 * {@code IF NOT EXISTS}, so creating twice is harmless.
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
		for (String table : List.of(settings.tableName(), settings.errorsTableName(), settings.handlersTableName(),
				settings.schedulesTableName(), settings.leasesTableName(), settings.queuesTableName(),
				settings.nodesTableName(), settings.statsTableName())) {
			jdbc.execute("DROP TABLE IF EXISTS " + table);
		}
	}

}

package dev.ojs.jdbc;

import java.util.List;

/**
 * Thrown at start-up when tables of the JDBC store do not exist: the schema script was
 * neither run by the application nor applied with its migrations.
 */
public class MissingTablesException extends IllegalStateException {

	private final List<String> tables;

	private final JdbcPlatform platform;

	private final String tablePrefix;

	/**
	 * @param tables the missing tables, as the store names them
	 * @param platform the database
	 * @param tablePrefix the configured table prefix
	 */
	public MissingTablesException(List<String> tables, JdbcPlatform platform, String tablePrefix) {
		super("OJS tables missing from the " + platform.id() + " database: " + String.join(", ", tables)
				+ "; create them with the script " + JdbcSchema.location(platform) + " from the ojs-core jar");
		this.tables = List.copyOf(tables);
		this.platform = platform;
		this.tablePrefix = tablePrefix;
	}

	/** The missing tables, e.g. {@code ojs_jobs}. */
	public List<String> getTables() {
		return this.tables;
	}

	/** The database the tables are missing from. */
	public JdbcPlatform getPlatform() {
		return this.platform;
	}

	/** The configured table prefix, which the script's {@code ojs_} stands for. */
	public String getTablePrefix() {
		return this.tablePrefix;
	}

	/** Where the platform's schema script is in the ojs-core jar. */
	public String getScriptLocation() {
		return JdbcSchema.location(this.platform);
	}

}

package dev.ojs.jdbc;

import java.util.regex.Pattern;

/**
 * How the JDBC store names its table and how much error history it keeps.
 *
 * @param tablePrefix prefix of the job table {@code <prefix>jobs}: an identifier
 * ({@code [A-Za-z_][A-Za-z0-9_]*}) of at most 40 characters, default {@code "ojs_"}
 * @param errorHistoryLimit how many of the most recent errors each job keeps (spec §10.1:
 * at least 10), default 20
 */
public record JdbcStoreSettings(String tablePrefix, int errorHistoryLimit) {

	/** What a table prefix may be: an unquoted SQL identifier start, at most 40 characters. */
	public static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

	/** RET-15: at least the 10 most recent errors are kept. */
	public static final int MIN_ERROR_HISTORY = 10;

	public JdbcStoreSettings {
		if (tablePrefix == null || !TABLE_PREFIX.matcher(tablePrefix).matches()) {
			throw new IllegalArgumentException(
					"Table prefix must match [A-Za-z_][A-Za-z0-9_]* and have at most 40 characters: " + tablePrefix);
		}
		if (errorHistoryLimit < MIN_ERROR_HISTORY) {
			throw new IllegalArgumentException(
					"errorHistoryLimit must be at least " + MIN_ERROR_HISTORY + " (spec §10.1), got " + errorHistoryLimit);
		}
	}

	/** Prefix {@code "ojs_"}, 20 errors. */
	public static JdbcStoreSettings defaults() {
		return new JdbcStoreSettings("ojs_", 20);
	}

	/** The job table's name, {@code <prefix>jobs}. */
	public String tableName() {
		return this.tablePrefix + "jobs";
	}

}

package dev.ojs.conformance;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Empties the OJS tables a case can fill (the schema scripts of ojs-core name them), so that
 * every case starts on an empty store as the suite assumes: jobs, their results and error history,
 * recurring jobs, queue states and statistics. The node's own rows (handlers, node, the
 * recurring-job evaluator's lease) stay. Test code only: the product has no such endpoint.
 */
final class JobTables {

	private static final String[] TABLES = { "job_results", "job_errors", "jobs", "workflows", "schedules", "queues", "stats" };

	private final JdbcTemplate jdbc;

	private final String tablePrefix;

	JobTables(DataSource dataSource, String tablePrefix) {
		this.jdbc = new JdbcTemplate(dataSource);
		this.tablePrefix = tablePrefix;
	}

	void empty() {
		for (String table : TABLES) {
			this.jdbc.update("DELETE FROM " + this.tablePrefix + table);
		}
	}

}

package dev.ojs.jdbc;

import java.util.regex.Pattern;

/**
 * How the JDBC store names its table, and how its claims commit.
 *
 * @param tablePrefix prefix of the job table {@code <prefix>jobs}: an identifier
 * ({@code [A-Za-z_][A-Za-z0-9_]*}) of at most 40 characters, default {@code "ojs_"}; the
 * only text from configuration ever spliced into SQL, so it is validated here, once
 * @param durableClaims whether a claim that commits on its own waits for its commit to be
 * flushed to PostgreSQL's write-ahead log; by default it does not ({@code synchronous_commit}
 * off for that transaction alone): a claim undone by a crash of the database server leaves
 * its jobs as they were before it, to be claimed and run again, at least once as after any
 * crash. Enqueues and outcomes always wait for their flush.
 */
public record JdbcStoreSettings(String tablePrefix, boolean durableClaims) {

	/** What a table prefix may be: an unquoted SQL identifier start, at most 40 characters. */
	public static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");

	/** The default table prefix. */
	public static final String DEFAULT_TABLE_PREFIX = "ojs_";

	public JdbcStoreSettings {
		if (tablePrefix == null || !TABLE_PREFIX.matcher(tablePrefix).matches()) {
			throw new IllegalArgumentException(
					"Table prefix must match [A-Za-z_][A-Za-z0-9_]* and have at most 40 characters: " + tablePrefix);
		}
	}

	/** Settings with this table prefix, claims not waiting for their flush. */
	public JdbcStoreSettings(String tablePrefix) {
		this(tablePrefix, false);
	}

	/** Prefix {@value #DEFAULT_TABLE_PREFIX}. */
	public static JdbcStoreSettings defaults() {
		return new JdbcStoreSettings(DEFAULT_TABLE_PREFIX);
	}

	/** The table of published handlers, {@code <prefix>handlers}. */
	public String handlersTableName() {
		return this.tablePrefix + "handlers";
	}

	/** The table of recurring jobs, {@code <prefix>schedules}. */
	public String schedulesTableName() {
		return this.tablePrefix + "schedules";
	}

	/** The table of leases (the recurring-job evaluator's), {@code <prefix>leases}. */
	public String leasesTableName() {
		return this.tablePrefix + "leases";
	}

	/** The job table's name, {@code <prefix>jobs}. */
	public String tableName() {
		return this.tablePrefix + "jobs";
	}

	/** The append-only table of error history entries, {@code <prefix>job_errors}. */
	public String errorsTableName() {
		return this.tablePrefix + "job_errors";
	}

	/** The table of job results, {@code <prefix>job_results}. */
	public String resultsTableName() {
		return this.tablePrefix + "job_results";
	}

	/** The table of workflows (chains, groups, batches), {@code <prefix>workflows}. */
	public String workflowsTableName() {
		return this.tablePrefix + "workflows";
	}

	/** The table of worker nodes (from their heartbeats), {@code <prefix>nodes}. */
	public String nodesTableName() {
		return this.tablePrefix + "nodes";
	}

	/** The table of per-minute outcome counters per queue, {@code <prefix>stats}. */
	public String statsTableName() {
		return this.tablePrefix + "stats";
	}

	/** The queue state table's name, {@code <prefix>queues}. */
	public String queuesTableName() {
		return this.tablePrefix + "queues";
	}

	/** The table of job types' limits on all nodes, {@code <prefix>limits}. */
	public String limitsTableName() {
		return this.tablePrefix + "limits";
	}

}

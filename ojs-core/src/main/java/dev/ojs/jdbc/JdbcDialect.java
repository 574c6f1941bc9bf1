package dev.ojs.jdbc;

import javax.sql.DataSource;

/**
 * The SQL of one database platform, by concern: one class per table or kind of statement,
 * each holding the SQL every platform shares. A platform whose SQL works differently for a
 * concern has a subclass of it ({@code Postgres*Sql}, {@code MariaDb*Sql}, {@code H2*Sql});
 * where it differs in a single statement, the statement is chosen by platform in the
 * concern's class. {@link #create} says which class each platform uses.
 * <p>
 * The stores ({@link JdbcJobStore}, {@link JdbcAdminStore}, {@link JdbcRecurringJobStore}) call the
 * concerns' methods only: the SQL and the transactions it runs in are theirs.
 */
final class JdbcDialect {

	private final JdbcPlatform platform;

	private final InsertSql inserts;

	private final JobSql jobs;

	private final ClaimSql claims;

	private final OutcomeSql outcomes;

	private final DeleteSql deletes;

	private final DeadLetterSql deadLetters;

	private final QueueSql queues;

	private final LimitSql limits;

	private final HandlerSql handlers;

	private final AdminSql admin;

	private final NodeSql nodes;

	private final StatsSql stats;

	private final RecurringJobSql recurringJobs;

	private final LeaseSql leases;

	private final ResultSql results;

	private final WorkflowSql workflows;

	private JdbcDialect(SqlSupport sql, JobRows rows, StatsSql stats, ResultSql results, InsertSql inserts,
			WorkflowSql workflows, ClaimSql claims, OutcomeSql outcomes, DeleteSql deletes) {
		this.platform = sql.platform;
		this.results = results;
		this.inserts = inserts;
		this.workflows = workflows;
		this.claims = claims;
		this.outcomes = outcomes;
		this.deletes = deletes;
		this.stats = stats;
		// the same SQL on every platform
		this.jobs = new JobSql(sql, rows);
		this.deadLetters = new DeadLetterSql(sql, rows);
		this.queues = new QueueSql(sql);
		this.limits = new LimitSql(sql);
		this.handlers = new HandlerSql(sql, rows);
		this.admin = new AdminSql(sql, rows, this.jobs);
		this.nodes = new NodeSql(sql);
		this.recurringJobs = new RecurringJobSql(sql);
		this.leases = new LeaseSql(sql);
	}

	/** The SQL of {@code platform} on the tables of {@code settings} in {@code dataSource}. */
	static JdbcDialect create(JdbcPlatform platform, JdbcStoreSettings settings, DataSource dataSource) {
		SqlSupport sql = new SqlSupport(platform, settings, dataSource);
		ErrorSql errors = new ErrorSql(sql);
		JobRows rows = new JobRows(sql, errors);
		StatsSql stats = new StatsSql(sql);
		ResultSql results = new ResultSql(sql);
		InsertSql inserts = switch (platform) {
			case POSTGRESQL -> new PostgresInsertSql(sql);
			case MARIADB, MYSQL -> new MariaDbInsertSql(sql);
			case H2 -> new H2InsertSql(sql);
		};
		WorkflowSql workflows = new WorkflowSql(sql, results, inserts,
				(platform == JdbcPlatform.POSTGRESQL) ? new PostgresAdvanceSql(sql) : new AdvanceSql(sql));
		return switch (platform) {
			case POSTGRESQL -> new JdbcDialect(sql, rows, stats, results, inserts, workflows,
					new PostgresClaimSql(sql, rows), new PostgresOutcomeSql(sql, rows, errors, results, stats, workflows),
					new PostgresDeleteSql(sql, errors, results));
			case MARIADB, MYSQL -> new JdbcDialect(sql, rows, stats, results, inserts, workflows,
					new MariaDbClaimSql(sql, rows), new MariaDbOutcomeSql(sql, rows, errors, results, stats, workflows),
					new DeleteSql(sql, errors, results));
			case H2 -> new JdbcDialect(sql, rows, stats, results, inserts, workflows, new H2ClaimSql(sql, rows),
					new OutcomeSql(sql, rows, errors, results, stats, workflows), new DeleteSql(sql, errors, results));
		};
	}

	JdbcPlatform platform() {
		return this.platform;
	}

	/** Job inserts, unique keys and insert notifications. */
	InsertSql inserts() {
		return this.inserts;
	}

	/** Reads and writes of single jobs by the application. */
	JobSql jobs() {
		return this.jobs;
	}

	/** Claims of due jobs. */
	ClaimSql claims() {
		return this.claims;
	}

	/** Attempt outcomes, rescue and expiry. */
	OutcomeSql outcomes() {
		return this.outcomes;
	}

	/** Workflows and their advance. */
	WorkflowSql workflows() {
		return this.workflows;
	}

	/** Job results. */
	ResultSql results() {
		return this.results;
	}

	/** Deletes of jobs with their error history and results. */
	DeleteSql deletes() {
		return this.deletes;
	}

	DeadLetterSql deadLetters() {
		return this.deadLetters;
	}

	/** Queue states: pause and rate limits. */
	QueueSql queues() {
		return this.queues;
	}

	/** Limits of job types. */
	LimitSql limits() {
		return this.limits;
	}

	/** Published handlers. */
	HandlerSql handlers() {
		return this.handlers;
	}

	/** The Admin API's queries. */
	AdminSql admin() {
		return this.admin;
	}

	/** Worker nodes. */
	NodeSql nodes() {
		return this.nodes;
	}

	/** Outcome statistics. */
	StatsSql stats() {
		return this.stats;
	}

	/** Recurring jobs' recurring jobs. */
	RecurringJobSql recurringJobs() {
		return this.recurringJobs;
	}

	/** The recurring-job evaluator's lease. */
	LeaseSql leases() {
		return this.leases;
	}

}

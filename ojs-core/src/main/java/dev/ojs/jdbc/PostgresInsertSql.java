package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.WorkflowPlace;

/**
 * Job inserts on PostgreSQL: one {@code INSERT ... SELECT ... FROM unnest(arrays)} per
 * {@value #UNNEST_CHUNK} rows; the {@code NOTIFY} that tells other processes follows the
 * commit ({@link PostgresNotifier}).
 * Unique keys: {@code INSERT ... ON CONFLICT (type, unique_key) WHERE <live> DO NOTHING}
 * against the partial unique index. In a REPEATABLE READ or SERIALIZABLE transaction whose
 * snapshot predates a conflicting holder, PostgreSQL raises a serialization failure instead
 * (the caller retries its transaction, as for any such conflict).
 */
final class PostgresInsertSql extends InsertSql {

	/** Rows per {@link #insertPlain} statement: bounds one statement's arrays, not PostgreSQL's limits. */
	static final int UNNEST_CHUNK = 5_000;

	private static final String NOTIFY = "SELECT pg_notify(?, q) FROM unnest(?::text[]) AS q";

	/** Ends every {@code LISTEN} of the session, so that a pooled connection stops collecting notifications. */
	static final String UNLISTEN_ALL = "UNLISTEN *";

	/** The insert from arrays, one per column. */
	private final String unnestInsert;

	/** {@link #unnestInsert} with the workflow columns, for rows of which one is a job of a workflow. */
	private final String placedUnnestInsert;

	/** The insert of rows that share all but id and arguments. */
	private final String uniformInsert;

	/** {@link #uniformInsert} of the jobs of one workflow, which differ in their step too. */
	private final String placedUniformInsert;

	private final PostgresNotifier notifier = new PostgresNotifier(this::sendNotify);

	PostgresInsertSql(SqlSupport shared) {
		// one channel per job table
		super(shared, shared.table);
		String unnestSelect = " SELECT r.id, r.type, r.queue, r.args::jsonb, r.meta::jsonb, r.priority, r.state, 0,"
				+ " r.max_attempts, r.retry_policy::jsonb, '[]', FALSE, NULL, r.scheduled_at, r.created_at, r.created_at,"
				+ " r.expires_at, r.timeout_ms, r.visibility_timeout_ms, r.concurrency_key, r.sequence_key";
		String unnestArrays = " FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[],"
				+ " ?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[], ?::int8[], ?::int8[],"
				+ " ?::text[], ?::text[]";
		String unnestNames = " AS r(id, type, queue, args, meta, priority, state, max_attempts, retry_policy,"
				+ " scheduled_at, created_at, expires_at, timeout_ms, visibility_timeout_ms, concurrency_key, sequence_key";
		this.unnestInsert = "INSERT INTO " + this.table + " " + INSERT_COLUMNS + unnestSelect + unnestArrays + ")"
				+ unnestNames + ")";
		this.placedUnnestInsert = "INSERT INTO " + this.table + " " + PLACED_INSERT_COLUMNS + unnestSelect
				+ ", r.workflow_id, r.workflow_type, r.workflow_step, r.workflow_role" + unnestArrays
				+ ", ?::uuid[], ?::text[], ?::int[], ?::text[])" + unnestNames
				+ ", workflow_id, workflow_type, workflow_step, workflow_role)";
		String uniformSelect = " SELECT r.id, ?, ?, r.args::jsonb, ?::jsonb, ?, ?, 0, ?, ?::jsonb, '[]', FALSE, NULL,"
				+ " ?, ?, ?, ?, ?, ?, ?, ?";
		this.uniformInsert = "INSERT INTO " + this.table + " " + INSERT_COLUMNS + uniformSelect
				+ " FROM unnest(?::uuid[], ?::text[]) AS r(id, args)";
		this.placedUniformInsert = "INSERT INTO " + this.table + " " + PLACED_INSERT_COLUMNS + uniformSelect
				+ ", ?::uuid, ?, r.step, ? FROM unnest(?::uuid[], ?::text[], ?::int[]) AS r(id, args, step)";
	}

	@Override
	String liveUniqueKeyPredicate() {
		return "type = ? AND unique_key = ? AND state IN (" + JobRows.LIVE + ")";
	}

	/** Subscribes the session to the notifications of {@link #notifyInserted} on {@code channel}. */
	static String listen(String channel) {
		return "LISTEN \"" + channel + "\"";
	}

	@Override
	void notifyInserted(Collection<String> queues) {
		this.notifier.owe(queues);
	}

	private void sendNotify(Collection<String> queues) {
		this.jdbc.query(con -> {
			PreparedStatement ps = con.prepareStatement(NOTIFY);
			ps.setString(1, this.table);
			ps.setArray(2, con.createArrayOf("text", queues.toArray()));
			return ps;
		}, (rs) -> {
		});
	}

	/**
	 * Inserts rows as {@code INSERT … SELECT … FROM unnest(arrays)}: one array parameter per
	 * column whatever the number of rows, so PostgreSQL parses and plans one short statement
	 * (a prepared one, as the text never changes) instead of thirteen parameters per row. A
	 * batch whose rows differ only in id and arguments (what {@code enqueueAll} makes) binds
	 * the shared values once.
	 */
	@Override
	void insertPlain(List<InsertRow> rows) {
		for (List<InsertRow> chunk : chunks(rows, UNNEST_CHUNK)) {
			this.jdbc.execute((Connection con) -> insertStatement(con, chunk), PreparedStatement::execute);
		}
	}

	@Override
	boolean insertsInOneStatement(int rows) {
		return rows <= UNNEST_CHUNK;
	}

	private PreparedStatement insertStatement(Connection con, List<InsertRow> rows) throws SQLException {
		boolean uniform = uniform(rows);
		boolean placed = InsertRow.anyPlaced(rows);
		String insert = uniform ? (placed ? this.placedUniformInsert : this.uniformInsert)
				: (placed ? this.placedUnnestInsert : this.unnestInsert);
		PreparedStatement ps = con.prepareStatement(insert);
		if (uniform) {
			bindUniform(con, ps, rows, placed);
		}
		else {
			bindUnnest(con, ps, rows, placed);
		}
		return ps;
	}

	/** Whether the rows differ in nothing but id, arguments and workflow step. */
	private static boolean uniform(List<InsertRow> rows) {
		InsertRow first = rows.get(0);
		for (InsertRow row : rows) {
			if (row != first && !(row.type().equals(first.type()) && row.queue().equals(first.queue())
					&& row.meta().equals(first.meta()) && row.priority() == first.priority()
					&& row.state() == first.state() && row.maxAttempts() == first.maxAttempts()
					&& row.policyJson().equals(first.policyJson()) && row.scheduledAt().equals(first.scheduledAt())
					&& row.createdAt().equals(first.createdAt())
					&& Objects.equals(row.expiresAt(), first.expiresAt())
					&& Objects.equals(row.timeoutMs(), first.timeoutMs())
					&& Objects.equals(row.visibilityTimeoutMs(), first.visibilityTimeoutMs())
					&& Objects.equals(row.concurrencyKey(), first.concurrencyKey())
					&& Objects.equals(row.sequenceKey(), first.sequenceKey())
					&& Objects.equals(row.workflowId(), first.workflowId()) && sameWorkflowRole(row, first))) {
				return false;
			}
		}
		return true;
	}

	/** Whether both rows are plain jobs, or jobs of one workflow type in one role. */
	private static boolean sameWorkflowRole(InsertRow row, InsertRow first) {
		WorkflowPlace place = row.workflowPlace();
		WorkflowPlace other = first.workflowPlace();
		return (place == null) ? other == null
				: other != null && place.type().equals(other.type()) && place.role().equals(other.role());
	}

	/**
	 * Binds {@link #uniformInsert}: the values the rows share, then ids and arguments; with
	 * {@code placed}, {@link #placedUniformInsert}: the workflow's id, type and role, then
	 * steps too.
	 */
	private void bindUniform(Connection con, PreparedStatement ps, List<InsertRow> rows, boolean placed)
			throws SQLException {
		InsertRow first = rows.get(0);
		int index = 1;
		ps.setString(index++, first.type());
		ps.setString(index++, first.queue());
		ps.setString(index++, first.meta());
		ps.setInt(index++, first.priority());
		ps.setString(index++, first.state().value());
		ps.setInt(index++, first.maxAttempts());
		ps.setString(index++, first.policyJson());
		setInstant(ps, index++, first.scheduledAt());
		setInstant(ps, index++, first.createdAt());
		setInstant(ps, index++, first.createdAt()); // enqueued_at
		setInstant(ps, index++, first.expiresAt());
		ps.setObject(index++, first.timeoutMs(), Types.BIGINT);
		ps.setObject(index++, first.visibilityTimeoutMs(), Types.BIGINT);
		ps.setString(index++, first.concurrencyKey());
		ps.setString(index++, first.sequenceKey());
		if (placed) {
			ps.setString(index++, first.workflowId());
			ps.setString(index++, first.workflowPlace().type());
			ps.setString(index++, first.workflowPlace().role());
		}
		Object[] ids = new Object[rows.size()];
		Object[] args = new Object[rows.size()];
		Object[] steps = new Object[rows.size()];
		for (int i = 0; i < ids.length; i++) {
			InsertRow row = rows.get(i);
			ids[i] = row.id();
			args[i] = row.args();
			steps[i] = placed ? row.workflowPlace().step() : null;
		}
		PostgresStatements.setArray(ps, index++, ids);
		PostgresStatements.setArray(ps, index++, args);
		if (placed) {
			ps.setArray(index, con.createArrayOf("int4", steps));
		}
	}

	/**
	 * Binds {@link #unnestInsert}'s arrays from parameter 1, with {@code placed}
	 * {@link #placedUnnestInsert}'s.
	 */
	private static void bindUnnest(Connection con, PreparedStatement ps, List<InsertRow> rows, boolean placed)
			throws SQLException {
		int size = rows.size();
		Object[] ids = new Object[size];
		Object[] types = new Object[size];
		Object[] queues = new Object[size];
		Object[] args = new Object[size];
		Object[] metas = new Object[size];
		Object[] priorities = new Object[size];
		Object[] states = new Object[size];
		Object[] maxAttempts = new Object[size];
		Object[] policies = new Object[size];
		Object[] scheduled = new Object[size];
		Object[] created = new Object[size];
		Object[] expires = new Object[size];
		Object[] timeouts = new Object[size];
		Object[] visibilities = new Object[size];
		Object[] keys = new Object[size];
		Object[] sequenceKeys = new Object[size];
		TimestampTexts texts = new TimestampTexts();
		for (int i = 0; i < size; i++) {
			InsertRow row = rows.get(i);
			ids[i] = row.id();
			types[i] = row.type();
			queues[i] = row.queue();
			args[i] = row.args();
			metas[i] = row.meta();
			priorities[i] = row.priority();
			states[i] = row.state().value();
			maxAttempts[i] = row.maxAttempts();
			policies[i] = row.policyJson();
			scheduled[i] = texts.of(row.scheduledAt());
			created[i] = texts.of(row.createdAt());
			expires[i] = (row.expiresAt() != null) ? PostgresStatements.timestamptz(row.expiresAt()) : null;
			timeouts[i] = row.timeoutMs();
			visibilities[i] = row.visibilityTimeoutMs();
			keys[i] = row.concurrencyKey();
			sequenceKeys[i] = row.sequenceKey();
		}
		int index = 1;
		for (Object[] column : List.of(ids, types, queues, args, metas)) {
			PostgresStatements.setArray(ps, index++, column);
		}
		ps.setArray(index++, con.createArrayOf("int4", priorities));
		PostgresStatements.setArray(ps, index++, states);
		ps.setArray(index++, con.createArrayOf("int4", maxAttempts));
		PostgresStatements.setArray(ps, index++, policies);
		PostgresStatements.setArray(ps, index++, scheduled);
		PostgresStatements.setArray(ps, index++, created);
		PostgresStatements.setArray(ps, index++, expires);
		ps.setArray(index++, con.createArrayOf("int8", timeouts));
		ps.setArray(index++, con.createArrayOf("int8", visibilities));
		PostgresStatements.setArray(ps, index++, keys);
		PostgresStatements.setArray(ps, index++, sequenceKeys);
		if (placed) {
			bindPlaces(con, ps, index, rows);
		}
	}

	/** Binds the workflow columns' arrays from {@code index} (nulls for plain jobs). */
	private static void bindPlaces(Connection con, PreparedStatement ps, int index, List<InsertRow> rows)
			throws SQLException {
		int size = rows.size();
		Object[] workflowIds = new Object[size];
		Object[] types = new Object[size];
		Object[] steps = new Object[size];
		Object[] roles = new Object[size];
		for (int i = 0; i < size; i++) {
			WorkflowPlace place = rows.get(i).workflowPlace();
			workflowIds[i] = rows.get(i).workflowId();
			types[i] = (place != null) ? place.type() : null;
			steps[i] = (place != null) ? place.step() : null;
			roles[i] = (place != null) ? place.role() : null;
		}
		PostgresStatements.setArray(ps, index++, workflowIds);
		PostgresStatements.setArray(ps, index++, types);
		ps.setArray(index++, con.createArrayOf("int4", steps));
		PostgresStatements.setArray(ps, index, roles);
	}

	/** {@link PostgresStatements#timestamptz} texts; a batch's rows mostly share their instants, formatted once. */
	private static final class TimestampTexts {

		private @Nullable Instant last;

		private @Nullable String text;

		String of(Instant instant) {
			if (!instant.equals(this.last)) {
				this.last = instant;
				this.text = PostgresStatements.timestamptz(instant);
			}
			return this.text;
		}

	}

	@Override
	@Nullable String insertUnique(InsertRow row) {
		List<String> inserted = this.jdbc.query(insertSql(row) + " ON CONFLICT (type, unique_key)"
				+ " WHERE unique_key IS NOT NULL AND state IN (" + JobRows.LIVE + ") DO NOTHING RETURNING id",
				(ps) -> bind(ps, 1, row), (rs, rowNum) -> rs.getString(1));
		return inserted.isEmpty() ? findLiveIdByUniqueKey(row.type(), row.uniqueKey()) : inserted.get(0);
	}

}

package dev.ojs.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.util.ClassUtils;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;

/**
 * PostgreSQL 13+: every worker operation is one statement.
 * <ul>
 * <li>Claim: {@code WITH due AS (SELECT id ... ORDER BY priority DESC, scheduled_at, id LIMIT n
 * FOR UPDATE SKIP LOCKED) UPDATE ... FROM due RETURNING ...}, served by the partial index
 * {@code <prefix>jobs_claim_idx}; under a backlog it resumes where the node's previous claim
 * ended ({@link ClaimCursors}).</li>
 * <li>Completions, failures and releases of a whole batch: one {@code UPDATE}/{@code DELETE}
 * joined to {@code unnest(...)} of per-row arrays (id, attempt, owner, new values), guarded
 * per row and {@code RETURNING} the ids written.</li>
 * <li>Insert: multi-row {@code VALUES}; the {@code NOTIFY} for the batch rides in the same
 * statement ({@code WITH ins AS (INSERT ...) SELECT pg_notify(...)}), and is delivered on
 * commit only.</li>
 * <li>Unique keys: {@code INSERT ... ON CONFLICT (type, unique_key) WHERE <live> DO NOTHING}
 * against the partial unique index. In a REPEATABLE READ or SERIALIZABLE transaction whose
 * snapshot predates a conflicting holder, PostgreSQL raises a serialization failure instead
 * (the caller retries its transaction, as for any such conflict).</li>
 * </ul>
 */
final class PostgresDialect extends JdbcDialect {

	private static final String J_COLUMNS = COLUMNS.stream().map((column) -> "j." + column)
		.collect(Collectors.joining(", "));

	/**
	 * Guard of a write joined to {@code unnest(ids, attempts, owners) AS c}.
	 * <p>
	 * Plans: these writes touch a batch of rows by primary key, and must do so whatever the
	 * table's statistics say (none at all on a new table, or on a server that never analyzes
	 * it) and however many jobs are active. The join {@code j.id = c.id} is the only access
	 * path offered: a nested loop from the batch into the primary key (or, on a small table,
	 * a hash join), O(batch). Two traps are avoided on purpose:
	 * <ul>
	 * <li>the state check is written {@code (j.state = 'active') IS TRUE} so that it does not
	 * match the predicate of the partial index {@code <prefix>jobs_locked_idx} ({@code WHERE
	 * state = 'active'}): with it, the planner may scan every active job for each row of the
	 * batch;</li>
	 * <li>no separate {@code j.id = ANY(ids)}: with it, the planner scans the primary key for
	 * the batch and then re-reads the whole {@code unnest} for every row found (a join filter,
	 * O(batch&sup2;): 8.7 ms instead of 2.2 ms for 100 completions).</li>
	 * </ul>
	 * The statements also run with custom plans only ({@link #customPlans}), never a generic
	 * plan cached while the table was empty.
	 */
	private static final String GUARD = " WHERE j.id = c.id AND j.attempt = c.attempt"
			+ " AND (j.state = 'active') IS TRUE AND j.locked_by = c.owner";

	/** Whether pgjdbc is on the class path (it is an optional dependency). */
	private static final boolean PGJDBC = ClassUtils.isPresent("org.postgresql.PGStatement",
			PostgresDialect.class.getClassLoader());

	private static final DateTimeFormatter TIMESTAMPTZ = new DateTimeFormatterBuilder()
		.appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL)
		.appendPattern("-MM-dd HH:mm:ss")
		.appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
		.appendLiteral("+00")
		.toFormatter(Locale.ROOT);

	private static final String NOTIFY = "SELECT pg_notify(?, q) FROM unnest(?::text[]) AS q";

	/** Ends every {@code LISTEN} of the session, so that a pooled connection stops collecting notifications. */
	static final String UNLISTEN_ALL = "UNLISTEN *";

	private static final String ATTEMPTS = "unnest(?::uuid[], ?::int[], ?::text[])";

	private static final Log logger = LogFactory.getLog(PostgresDialect.class);

	private final ClaimCursors cursors = new ClaimCursors();

	/** Rows per {@link #insertPlain} statement: bounds one statement's arrays, not PostgreSQL's limits. */
	static final int UNNEST_CHUNK = 5_000;

	/** The plain insert, from arrays ({@link #insertPlain}). */
	private final String unnestInsert;

	/** The plain insert of rows that share all but id and arguments ({@link #insertPlain}). */
	private final String uniformInsert;

	PostgresDialect(JdbcStoreSettings settings, DataSource dataSource) {
		super(JdbcPlatform.POSTGRESQL, settings, dataSource);
		this.unnestInsert = "INSERT INTO " + this.table + " " + INSERT_COLUMNS
				+ " SELECT r.id, r.type, r.queue, r.args::jsonb, r.meta::jsonb, r.priority, r.state, 0, r.max_attempts,"
				+ " r.retry_policy::jsonb, '[]', FALSE, NULL, r.scheduled_at, r.created_at, r.created_at, r.expires_at"
				+ " FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[],"
				+ " ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[]) AS r(id, type, queue, args, meta,"
				+ " priority, state, max_attempts, retry_policy, scheduled_at, created_at, expires_at)";
		this.uniformInsert = "INSERT INTO " + this.table + " " + INSERT_COLUMNS
				+ " SELECT r.id, ?, ?, r.args::jsonb, ?::jsonb, ?, ?, 0, ?, ?::jsonb, '[]', FALSE, NULL, ?, ?, ?, ?"
				+ " FROM unnest(?::uuid[], ?::text[]) AS r(id, args)";
	}

	/**
	 * Reads a {@code timestamptz} as a {@link java.sql.Timestamp}: pgjdbc builds it straight
	 * from the binary value, where an {@code OffsetDateTime} costs new {@code ZoneRules} per
	 * value on Java 17 (twice the time per timestamp read, eight per claimed job).
	 */
	@Override
	@Nullable Instant getInstant(ResultSet rs, int index) throws SQLException {
		Timestamp value = rs.getTimestamp(index);
		return (value != null) ? value.toInstant() : null;
	}

	@Override
	String idParam() {
		return "?::uuid";
	}

	@Override
	String jsonParam() {
		return "?::jsonb";
	}

	@Override
	String liveUniqueKeyPredicate() {
		return "type = ? AND unique_key = ? AND state IN (" + LIVE + ")";
	}

	@Override
	String upsertHandlerSql() {
		return "INSERT INTO " + this.handlersTable + " (type, queue, priority, application_policy, handler_policy,"
				+ " application, node_id, published_at) VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?) ON CONFLICT (type)"
				+ " DO UPDATE SET queue = EXCLUDED.queue, priority = EXCLUDED.priority,"
				+ " application_policy = EXCLUDED.application_policy, handler_policy = EXCLUDED.handler_policy,"
				+ " application = EXCLUDED.application, node_id = EXCLUDED.node_id, published_at = EXCLUDED.published_at";
	}

	@Override
	String notifyChannel() {
		return this.table;
	}

	/**
	 * Autovacuum off for the server ({@code autovacuum} or {@code track_counts} off) or for
	 * the table ({@code autovacuum_enabled = false}).
	 */
	@Override
	@Nullable String vacuumWarning() {
		List<String> reasons = this.jdbc.query("SELECT current_setting('autovacuum') = 'off',"
				+ " current_setting('track_counts') = 'off', coalesce((SELECT lower(option_value) IN ('false', 'off', 'no', '0')"
				+ " FROM pg_options_to_table(c.reloptions) WHERE option_name = 'autovacuum_enabled'), false)"
				+ " FROM pg_class c WHERE c.oid = to_regclass(?)", (rs) -> {
					List<String> found = new ArrayList<>();
					if (rs.next()) {
						if (rs.getBoolean(1)) {
							found.add("the server runs with autovacuum = off");
						}
						if (rs.getBoolean(2)) {
							found.add("the server runs with track_counts = off, which autovacuum needs");
						}
						if (rs.getBoolean(3)) {
							found.add("the table is set autovacuum_enabled = false");
						}
					}
					return found;
				}, this.table);
		if (reasons == null || reasons.isEmpty()) {
			return null;
		}
		return "Autovacuum does not process the OJS job table " + this.table + " (" + String.join("; ", reasons)
				+ "): a claim from the front of a queue walks the index entries of the jobs claimed since the table"
				+ " was last vacuumed, so such claims get slower the more jobs run. Turn autovacuum on for it, or"
				+ " VACUUM " + this.table + " regularly.";
	}

	/** Subscribes the session to the notifications of {@link #notifyInserted} on {@code channel}. */
	static String listen(String channel) {
		return "LISTEN \"" + channel + "\"";
	}

	@Override
	void notifyInserted(Collection<String> queues) {
		this.jdbc.query(con -> {
			PreparedStatement ps = con.prepareStatement(NOTIFY);
			bindNotify(con, ps, 1, queues);
			return ps;
		}, (rs) -> {
		});
	}

	/**
	 * Inserts rows in one statement per {@value #UNNEST_CHUNK} rows (see {@link #insertPlain});
	 * the last statement also sends one NOTIFY per queue in {@code notify}.
	 */
	@Override
	void insert(List<InsertRow> rows, Collection<String> notify) {
		List<List<InsertRow>> chunks = chunks(rows, UNNEST_CHUNK);
		for (int i = 0; i < chunks.size(); i++) {
			List<InsertRow> chunk = chunks.get(i);
			Collection<String> notifyNow = (i == chunks.size() - 1) ? notify : List.of();
			this.jdbc.execute((Connection con) -> insertStatement(con, chunk, notifyNow), PreparedStatement::execute);
		}
	}

	/**
	 * Inserts rows as {@code INSERT … SELECT … FROM unnest(arrays)}: one array parameter per
	 * column whatever the number of rows, so PostgreSQL parses and plans one short statement
	 * (a prepared one, as the text never changes) instead of thirteen parameters per row. A
	 * batch whose rows differ only in id and arguments (what {@code enqueueAll} makes) binds
	 * the shared values once.
	 */
	@Override
	boolean insertsInOneStatement(int rows) {
		return rows <= UNNEST_CHUNK;
	}

	@Override
	void insertPlain(List<InsertRow> rows) {
		insert(rows, List.of());
	}

	private PreparedStatement insertStatement(Connection con, List<InsertRow> rows, Collection<String> notify)
			throws SQLException {
		boolean uniform = uniform(rows);
		String insert = uniform ? this.uniformInsert : this.unnestInsert;
		PreparedStatement ps = con.prepareStatement(notify.isEmpty() ? insert : "WITH ins AS (" + insert + ") " + NOTIFY);
		int index = uniform ? bindUniform(con, ps, rows) : bindUnnest(con, ps, rows);
		if (!notify.isEmpty()) {
			bindNotify(con, ps, index, notify);
		}
		return ps;
	}

	/** Whether the rows differ in nothing but id and arguments. */
	private static boolean uniform(List<InsertRow> rows) {
		InsertRow first = rows.get(0);
		for (InsertRow row : rows) {
			if (row != first && !(row.type().equals(first.type()) && row.queue().equals(first.queue())
					&& row.meta().equals(first.meta()) && row.priority() == first.priority()
					&& row.state() == first.state() && row.maxAttempts() == first.maxAttempts()
					&& row.policyJson().equals(first.policyJson()) && row.scheduledAt().equals(first.scheduledAt())
					&& row.createdAt().equals(first.createdAt())
					&& Objects.equals(row.expiresAt(), first.expiresAt()))) {
				return false;
			}
		}
		return true;
	}

	/** Binds {@link #uniformInsert}: the values the rows share, then ids and arguments. */
	private int bindUniform(Connection con, PreparedStatement ps, List<InsertRow> rows) throws SQLException {
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
		Object[] ids = new Object[rows.size()];
		Object[] args = new Object[rows.size()];
		for (int i = 0; i < ids.length; i++) {
			ids[i] = rows.get(i).id();
			args[i] = rows.get(i).args();
		}
		ps.setArray(index++, con.createArrayOf("text", ids));
		ps.setArray(index++, con.createArrayOf("text", args));
		return index;
	}

	/** Binds {@link #unnestInsert}'s arrays from parameter 1; returns the next free index. */
	private static int bindUnnest(Connection con, PreparedStatement ps, List<InsertRow> rows) throws SQLException {
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
			expires[i] = (row.expiresAt() != null) ? timestamptz(row.expiresAt()) : null;
		}
		int index = 1;
		for (Object[] column : List.of(ids, types, queues, args, metas)) {
			ps.setArray(index++, con.createArrayOf("text", column));
		}
		ps.setArray(index++, con.createArrayOf("int4", priorities));
		ps.setArray(index++, con.createArrayOf("text", states));
		ps.setArray(index++, con.createArrayOf("int4", maxAttempts));
		ps.setArray(index++, con.createArrayOf("text", policies));
		ps.setArray(index++, con.createArrayOf("text", scheduled));
		ps.setArray(index++, con.createArrayOf("text", created));
		ps.setArray(index++, con.createArrayOf("text", expires));
		return index;
	}

	/** {@link #timestamptz} texts; a batch's rows mostly share their instants, formatted once. */
	private static final class TimestampTexts {

		private @Nullable Instant last;

		private @Nullable String text;

		String of(Instant instant) {
			if (!instant.equals(this.last)) {
				this.last = instant;
				this.text = timestamptz(instant);
			}
			return this.text;
		}

	}

	private void bindNotify(Connection con, PreparedStatement ps, int index, Collection<String> queues)
			throws SQLException {
		ps.setString(index, notifyChannel());
		ps.setArray(index + 1, con.createArrayOf("text", queues.toArray()));
	}

	@Override
	@Nullable String insertUnique(InsertRow row) {
		List<String> inserted = this.jdbc.query(insertSql(1) + " ON CONFLICT (type, unique_key)"
				+ " WHERE unique_key IS NOT NULL AND state IN (" + LIVE + ") DO NOTHING RETURNING id",
				(ps) -> bindInsert(ps, 1, row), (rs, rowNum) -> rs.getString(1));
		return inserted.isEmpty() ? findLiveIdByUniqueKey(row.type(), row.uniqueKey()) : inserted.get(0);
	}

	/**
	 * Claims in claim order; while the queue has a backlog, from where this node's previous
	 * claim ended (see {@link ClaimCursors}).
	 */
	@Override
	List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit, Instant now) {
		ClaimCursors.Key key = new ClaimCursors.Key(nodeId, queue, visibilityByType.keySet());
		ClaimCursors.Cursor cursor = this.cursors.resumeAt(key, now);
		List<Job> jobs = claim(nodeId, queue, visibilityByType, limit, now, cursor);
		Instant frontClaimAt = (cursor != null) ? cursor.frontClaimAt() : now;
		if (cursor != null && jobs.size() < limit) {
			// the rest of the cursor's priority is taken: the front fills the remaining slots
			List<Job> front;
			try {
				front = claim(nodeId, queue, visibilityByType, limit - jobs.size(), now, null);
			}
			catch (RuntimeException ex) {
				this.cursors.forget(key);
				if (jobs.isEmpty()) {
					throw ex;
				}
				// the resumed claim has committed: its jobs are this node's, hand them out
				logger.warn("OJS: claiming queue " + queue + " from the front failed after a resumed claim took "
						+ jobs.size() + " jobs; running those, the next claim starts from the front: " + ex);
				return jobs;
			}
			if (!front.isEmpty()) {
				List<Job> all = new ArrayList<>(jobs);
				all.addAll(front);
				all.sort(CLAIM_ORDER);
				jobs = all;
			}
			frontClaimAt = now;
		}
		this.cursors.claimed(key, jobs, limit, frontClaimAt);
		return jobs;
	}

	private List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			Instant now, ClaimCursors.@Nullable Cursor resumeAfter) {
		String sql = claimSql(visibilityByType, resumeAfter != null);
		List<Job> jobs = this.jdbc.query(con -> {
			// a generic plan cached while the table was small joins the claimed ids to a scan of
			// the whole table (57 ms per claim at 180,000 jobs, BENCHMARKS.md)
			PreparedStatement ps = customPlans(con.prepareStatement(sql));
			bindClaim(con, ps, nodeId, queue, visibilityByType, limit, now, resumeAfter);
			return ps;
		}, this::mapJob);
		jobs.sort(CLAIM_ORDER);
		return jobs;
	}

	/** Binds {@link #claimSql}'s parameters. */
	void bindClaim(Connection con, PreparedStatement ps, String nodeId, String queue,
			Map<String, Duration> visibilityByType, int limit, Instant now,
			ClaimCursors.@Nullable Cursor resumeAfter) throws SQLException {
		int index = 1;
		if (resumeAfter == null) {
			// the queue's priorities
			ps.setString(index++, queue);
			ps.setString(index++, queue);
		}
		ps.setString(index++, queue);
		setInstant(ps, index++, now);
		setInstant(ps, index++, now);
		if (!anyType(visibilityByType)) {
			ps.setArray(index++, con.createArrayOf("text", visibilityByType.keySet().toArray()));
		}
		if (resumeAfter != null) {
			ps.setInt(index++, resumeAfter.priority());
			setInstant(ps, index++, resumeAfter.scheduledAt());
			ps.setString(index++, resumeAfter.id());
		}
		else {
			// per priority, then in all
			ps.setInt(index++, limit);
		}
		ps.setInt(index++, limit);
		ps.setString(index++, nodeId);
		setInstant(ps, index++, now);
		bindLockedUntil(ps, index, visibilityByType, now);
	}

	/**
	 * The claim. From the front of the queue, a loose index scan of {@code claim_idx}: the
	 * queue's distinct priorities, highest first, each with its first claimable entry (one index
	 * descent each, past the dead entries that claimed jobs leave until a vacuum), then per
	 * priority its due entries from that first one on, a range that {@code scheduled_at <= now}
	 * ends, so jobs scheduled ahead and retries waiting out their backoff are never read (a
	 * single range over the queue would walk all of them, as {@code priority} comes before
	 * {@code scheduled_at}), nor the dead entries a second time. With {@code resume},
	 * only the rest of one priority after a claim-order key
	 * ({@code priority = ? AND (scheduled_at, id) > (?, ?)}, an index range).
	 */
	String claimSql(Map<String, Duration> visibilityByType, boolean resume) {
		String due = " state IN (" + CLAIMABLE + ") AND queue = ? AND scheduled_at <= ?" + NOT_EXPIRED
				+ (anyType(visibilityByType) ? "" : " AND type = ANY(?)");
		String select = resume
				? "WITH due AS (SELECT id FROM " + this.table + " WHERE" + due
						+ " AND priority = ? AND (scheduled_at, id) > (?, ?::uuid)"
						+ " ORDER BY priority DESC, scheduled_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
				: "WITH RECURSIVE prio AS ((SELECT priority, scheduled_at, id FROM " + this.table + " WHERE state IN ("
						+ CLAIMABLE + ") AND queue = ? ORDER BY priority DESC, scheduled_at, id LIMIT 1)"
						+ " UNION ALL SELECT n.priority, n.scheduled_at, n.id FROM prio, LATERAL (SELECT p.priority,"
						+ " p.scheduled_at, p.id FROM " + this.table + " p WHERE p.state IN (" + CLAIMABLE + ")"
						+ " AND p.queue = ? AND p.priority < prio.priority ORDER BY p.priority DESC, p.scheduled_at, p.id"
						+ " LIMIT 1) n),"
						+ " due AS (SELECT d.id FROM prio, LATERAL (SELECT id, priority, scheduled_at FROM " + this.table
						+ " WHERE" + due + " AND priority = prio.priority AND (scheduled_at, id) >= (prio.scheduled_at, prio.id)"
						+ " ORDER BY scheduled_at, id LIMIT ? FOR UPDATE SKIP LOCKED) d"
						+ " ORDER BY d.priority DESC, d.scheduled_at, d.id LIMIT ?)";
		return select + " UPDATE " + this.table + " j SET state = 'active', attempt = j.attempt + 1, locked_by = ?,"
				+ " started_at = ?, locked_until = " + lockedUntilExpression(visibilityByType, "j.type")
				+ " FROM due WHERE j.id = due.id RETURNING " + J_COLUMNS;
	}

	@Override
	Set<String> complete(List<Job> jobs, Instant now, boolean delete) {
		String sql = delete ? "WITH d AS (DELETE FROM " + this.table + " j USING " + ATTEMPTS + " AS c(id, attempt, owner)"
				+ GUARD + " RETURNING j.id), e AS (" + deleteErrorsOf("d") + ") SELECT id FROM d"
				: "UPDATE " + this.table + " j SET state = 'completed', completed_at = ?, locked_until = NULL FROM "
						+ ATTEMPTS + " AS c(id, attempt, owner)" + GUARD + " RETURNING j.id";
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(sql));
			int index = 1;
			if (!delete) {
				setInstant(ps, index++, now);
			}
			bindAttempts(con, ps, index, jobs, Function.identity());
			return ps;
		});
	}

	/**
	 * One statement: the guarded update of each job, the append of its error to its history,
	 * and, past the history's limit, the removal of the entries of attempts it no longer keeps.
	 */
	@Override
	Set<String> fail(List<AttemptFailure> failures, @Nullable Instant expiredBefore) {
		String sql = "WITH f AS (UPDATE " + this.table + " j SET state = c.state, scheduled_at = c.scheduled_at,"
				+ " last_error_type = c.error_type, dead_letter = c.dead_letter,"
				+ " discarded_at = c.discarded_at, locked_until = NULL"
				+ " FROM unnest(?::uuid[], ?::int[], ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::text[], ?::text[],"
				+ " ?::int[], ?::boolean[], ?::timestamptz[])"
				+ " AS c(id, attempt, owner, state, scheduled_at, error_attempt, error, error_type, keep_from,"
				+ " dead_letter, discarded_at)"
				+ GUARD + ((expiredBefore != null) ? " AND j.locked_until < ?" : "")
				+ " RETURNING j.id, c.error_attempt, c.error, c.keep_from),"
				+ " e AS (INSERT INTO " + this.errorsTable + " (job_id, attempt, error)"
				+ " SELECT id, error_attempt, error FROM f WHERE error IS NOT NULL),"
				+ " t AS (DELETE FROM " + this.errorsTable + " x USING f WHERE f.keep_from > 1 AND x.job_id = f.id"
				+ " AND x.attempt < f.keep_from)"
				+ " SELECT id FROM f";
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement(sql));
			int index = bindAttempts(con, ps, 1, failures, AttemptFailure::job);
			ps.setArray(index++, texts(con, failures, (failure) -> failure.state().value()));
			ps.setArray(index++, texts(con, failures, (failure) -> timestamptz(failure.scheduledAt())));
			ps.setArray(index++, con.createArrayOf("int4", failures.stream()
				.map((failure) -> (failure.error() != null) ? failure.error().attempt() : null)
				.toArray()));
			ps.setArray(index++, texts(con, failures,
					(failure) -> (failure.error() != null) ? ErrorHistoryJson.writeEntry(failure.error()) : null));
			ps.setArray(index++, texts(con, failures, JdbcDialect::lastErrorType));
			ps.setArray(index++, con.createArrayOf("int4", failures.stream().map(AttemptFailure::oldestAttemptKept).toArray()));
			ps.setArray(index++, con.createArrayOf("bool", failures.stream().map(AttemptFailure::deadLetter).toArray()));
			ps.setArray(index++, texts(con, failures, (failure) -> timestamptz(failure.discardedAt())));
			if (expiredBefore != null) {
				setInstant(ps, index, expiredBefore);
			}
			return ps;
		});
	}

	/** One statement: the jobs, and the error history of those deleted ({@code DELETE ... RETURNING} in a CTE). */
	@Override
	int deleteJobs(String where, List<?> values, String order, int limit) {
		Integer deleted = this.jdbc.query("WITH d AS (DELETE FROM " + this.table + " WHERE id IN (SELECT id FROM "
				+ this.table + " WHERE " + where + " ORDER BY " + order + " LIMIT ?) RETURNING id), e AS ("
				+ deleteErrorsOf("d") + ") SELECT count(*) FROM d",
				(ps) -> ps.setInt(bindValues(ps, 1, values), limit), (rs) -> rs.next() ? rs.getInt(1) : 0);
		return (deleted != null) ? deleted : 0;
	}

	/** Deletes the error history of the jobs in CTE {@code deleted}'s {@code id} column. */
	private String deleteErrorsOf(String deleted) {
		return "DELETE FROM " + this.errorsTable + " x USING " + deleted + " WHERE x.job_id = " + deleted + ".id";
	}

	@Override
	Set<String> release(List<Job> jobs) {
		return returningIds(con -> {
			PreparedStatement ps = customPlans(con.prepareStatement("UPDATE " + this.table + " j SET state = 'available',"
					+ " attempt = j.attempt - 1, locked_by = NULL, locked_until = NULL, started_at = NULL FROM "
					+ ATTEMPTS + " AS c(id, attempt, owner)" + GUARD + " RETURNING j.id"));
			bindAttempts(con, ps, 1, jobs, Function.identity());
			return ps;
		});
	}

	@Override
	int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		return this.jdbc.update(con -> {
			// same plan concerns as GUARD
			PreparedStatement ps = customPlans(con.prepareStatement("UPDATE " + this.table
					+ " SET locked_until = ? WHERE id = ANY(?::uuid[]) AND (state = 'active') IS TRUE AND locked_by = ?"));
			setInstant(ps, 1, lockedUntil);
			ps.setArray(2, con.createArrayOf("text", ids.toArray()));
			ps.setString(3, nodeId);
			return ps;
		});
	}

	/**
	 * Plans {@code ps} for its parameters at every execution: pgjdbc otherwise switches it to
	 * a named server-side statement after a few executions (prepareThreshold, 5 by default),
	 * for which PostgreSQL may cache a generic plan made for whatever the table looked like
	 * then (often empty).
	 */
	static PreparedStatement customPlans(PreparedStatement ps) throws SQLException {
		if (PGJDBC) {
			PgJdbc.customPlans(ps);
		}
		return ps;
	}

	/** Loaded only when pgjdbc is present. */
	private static final class PgJdbc {

		static void customPlans(PreparedStatement ps) throws SQLException {
			if (ps.isWrapperFor(org.postgresql.PGStatement.class)) {
				ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
			}
		}

	}

	/** Binds the {@code unnest(ids, attempts, owners)} of a guarded batch write. */
	private static <T> int bindAttempts(Connection con, PreparedStatement ps, int index, List<T> items,
			Function<T, Job> job) throws SQLException {
		ps.setArray(index++, texts(con, items, (item) -> job.apply(item).id()));
		ps.setArray(index++, con.createArrayOf("int4", items.stream().map((item) -> job.apply(item).attempt()).toArray()));
		ps.setArray(index++, texts(con, items, (item) -> job.apply(item).lockedBy()));
		return index;
	}

	/**
	 * An instant as {@code timestamptz} text for an array parameter: {@code 2026-02-12
	 * 10:31:05.123456+00}. Unlike {@link Instant#toString()}, a year after 9999 has no sign,
	 * which PostgreSQL would reject.
	 */
	static @Nullable String timestamptz(@Nullable Instant instant) {
		return (instant != null) ? TIMESTAMPTZ.format(utcDateTime(instant)) : null;
	}

	private static <T> Array texts(Connection con, List<T> items, Function<T, @Nullable String> value)
			throws SQLException {
		return con.createArrayOf("text", items.stream().map(value).toArray());
	}

	private Set<String> returningIds(PreparedStatementCreator statement) {
		return new HashSet<>(this.jdbc.query(statement, (rs, rowNum) -> rs.getString(1)));
	}

}

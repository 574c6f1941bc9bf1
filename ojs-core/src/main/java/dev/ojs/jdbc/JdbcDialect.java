package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.Timestamps;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.worker.WorkerStore;

/**
 * The SQL of one database platform, in one place. The base class holds the SQL every
 * platform shares and the guarded per-row batch writes that MariaDB, MySQL and H2 use;
 * {@link PostgresDialect}, {@link MariaDbDialect} and {@link H2Dialect} hold the rest.
 * <p>
 * Every statement binds its values; the only text spliced into SQL is the validated table
 * name. Every write to a claimed job is guarded by the job's id, its attempt number, state
 * {@code active} and the reservation owner, so a late write from a node whose reservation
 * was reaped changes nothing (and is reported as rejected).
 */
abstract class JdbcDialect {

	/** Column order of {@link #mapJob(ResultSet, int)}. */
	static final List<String> COLUMNS = List.of("id", "type", "queue", "args", "meta", "priority", "state", "attempt",
			"max_attempts", "retry_policy", "errors", "dead_letter", "unique_key", "scheduled_at", "created_at",
			"enqueued_at", "started_at", "completed_at", "discarded_at", "locked_by", "locked_until", "expires_at");

	static final String SELECT_COLUMNS = String.join(", ", COLUMNS);

	/** Claim order: priority descending, then scheduled time, then id (FIFO within a priority). */
	static final Comparator<Job> CLAIM_ORDER = Comparator.comparingInt(Job::priority)
		.reversed()
		.thenComparing(Job::scheduledAt)
		.thenComparing(Job::id);

	/** States a job can be claimed from (once {@code scheduled_at <= now}). */
	static final String CLAIMABLE = "'available', 'scheduled', 'retryable'";

	/**
	 * A claim's filter on expiry: a job past its {@code expires_at} is never handed out (the
	 * {@code Expirer} discards it); bound to the claim's {@code now}. A filter on the rows the
	 * claim reads anyway, so the claim's plan does not change.
	 */
	static final String NOT_EXPIRED = " AND (expires_at IS NULL OR expires_at > ?)";

	/** States whose jobs expire once {@code expires_at} passes: those still waiting to run. */
	static final String EXPIRABLE = "'scheduled', 'available', 'retryable', 'pending'";

	/** Dead letters: discarded jobs marked as such. */
	static final String DEAD_LETTER = "state = 'discarded' AND dead_letter = TRUE";

	/** Live (non-terminal) states: at most one job per unique key among them. */
	static final String LIVE = "'scheduled', 'available', 'active', 'retryable'";

	/** Ids per statement for IN lists and per-row batches. */
	static final int CHUNK = 500;

	private static final int POLICY_CACHE_SIZE = 1024;

	private static final Log logger = LogFactory.getLog(JdbcDialect.class);

	final JdbcPlatform platform;

	final String table;

	/** The table of published handlers. */
	final String handlersTable;

	/** The queue state table. */
	final String queuesTable;

	/** The append-only error history table. */
	final String errorsTable;

	final JdbcTemplate jdbc;

	/** Worker-side transactions: always new, READ COMMITTED. */
	final TransactionTemplate workerTx;

	/** A claim's transaction: its own, or the caller's (a rate-limited claim's, holding its queue's bucket). */
	final TransactionTemplate claimTx;

	/**
	 * Guarded batch writes: a transaction of their own, or a savepoint in the caller's (the
	 * rescuer's, which holds the rows locked); the connection's isolation (they only lock and write).
	 */
	private final TransactionTemplate batchTx;

	/** Set once the driver reported {@link Statement#SUCCESS_NO_INFO} for a guarded batch. */
	private volatile boolean lockBeforeBatch;

	private final BoundedCache<String, RetryPolicy> policies = new BoundedCache<>(POLICY_CACHE_SIZE);

	JdbcDialect(JdbcPlatform platform, JdbcStoreSettings settings, DataSource dataSource) {
		this.platform = platform;
		this.table = settings.tableName();
		this.handlersTable = settings.handlersTableName();
		this.queuesTable = settings.queuesTableName();
		this.errorsTable = settings.errorsTableName();
		this.jdbc = new JdbcTemplate(dataSource);
		this.workerTx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.workerTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.workerTx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.claimTx = new TransactionTemplate(this.workerTx.getTransactionManager());
		this.claimTx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.batchTx = new TransactionTemplate(this.workerTx.getTransactionManager());
		this.batchTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
	}

	static JdbcDialect create(JdbcPlatform platform, JdbcStoreSettings settings, DataSource dataSource) {
		return switch (platform) {
			case POSTGRESQL -> new PostgresDialect(settings, dataSource);
			case MARIADB, MYSQL -> new MariaDbDialect(platform, settings, dataSource);
			case H2 -> new H2Dialect(settings, dataSource);
		};
	}

	/** Drops the tables when they exist (the same statements on every platform). */
	static void dropTable(DataSource dataSource, JdbcStoreSettings settings) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS " + settings.tableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.errorsTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.handlersTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.schedulesTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.leasesTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.queuesTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.nodesTableName());
		jdbc.execute("DROP TABLE IF EXISTS " + settings.statsTableName());
	}

	// ---- values

	/** Binds an instant; by default as a UTC {@link OffsetDateTime} (timestamp with time zone). */
	void setInstant(PreparedStatement ps, int index, @Nullable Instant value) throws SQLException {
		ps.setObject(index, (value != null) ? utc(value) : null);
	}

	/** {@code value.atOffset(UTC)}, through {@link #utcDateTime}. */
	static OffsetDateTime utc(Instant value) {
		return OffsetDateTime.of(utcDateTime(value), ZoneOffset.UTC);
	}

	/**
	 * {@code LocalDateTime.ofInstant(value, UTC)} without its cost on Java 17, where every
	 * conversion through a zone builds new {@code ZoneRules} for the offset (a few percent of
	 * a worker's CPU, once per bound or read timestamp).
	 */
	static LocalDateTime utcDateTime(Instant value) {
		return LocalDateTime.ofEpochSecond(value.getEpochSecond(), value.getNano(), ZoneOffset.UTC);
	}

	@Nullable Instant getInstant(ResultSet rs, int index) throws SQLException {
		OffsetDateTime value = rs.getObject(index, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	/** Bind marker for an id (PostgreSQL casts to uuid). */
	String idParam() {
		return "?";
	}

	/** Bind marker for a JSON value (PostgreSQL casts to jsonb). */
	String jsonParam() {
		return "?";
	}

	/**
	 * Predicate selecting the live job of type {@code ?} with unique key {@code ?}: a key is
	 * unique per type among live jobs.
	 */
	abstract String liveUniqueKeyPredicate();

	/**
	 * Deletes up to {@code limit} jobs matching {@code where} (its {@code values} bound in
	 * order), first in {@code order}, with their error history; returns how many jobs.
	 */
	int deleteJobs(String where, List<?> values, String order, int limit) {
		Integer deleted = this.batchTx.execute((status) -> deleteMatching(this.jdbc.query("SELECT id FROM " + this.table
				+ " WHERE " + where + " ORDER BY " + order + " LIMIT ?", (ps) -> ps.setInt(bindValues(ps, 1, values), limit),
				(rs, rowNum) -> rs.getString(1)), where, values));
		return (deleted != null) ? deleted : 0;
	}

	/**
	 * Deletes those of the jobs {@code ids} that match {@code where} (its {@code values}
	 * bound in order), with their error history; returns how many jobs.
	 */
	int deleteJobs(Collection<String> ids, String where, List<?> values) {
		Integer deleted = this.batchTx.execute((status) -> deleteMatching(ids, where, values));
		return (deleted != null) ? deleted : 0;
	}

	private int deleteMatching(Collection<String> ids, String where, List<?> values) {
		int count = 0;
		for (List<String> chunk : chunks(new ArrayList<>(ids), CHUNK)) {
			count += this.jdbc.update("DELETE FROM " + this.table + " WHERE id IN (" + idMarkers(chunk.size()) + ") AND "
					+ where, (ps) -> bindValues(ps, bindValues(ps, 1, chunk), values));
			deleteErrorsOfDeleted(chunk);
		}
		return count;
	}

	/** Deletes the error history of those of the jobs {@code ids} that no longer exist. */
	void deleteErrorsOfDeleted(List<String> ids) {
		this.jdbc.update("DELETE FROM " + this.errorsTable + " WHERE job_id IN (" + idMarkers(ids.size())
				+ ") AND NOT EXISTS (SELECT 1 FROM " + this.table + " j WHERE j.id = " + this.errorsTable + ".job_id)",
				(ps) -> bindValues(ps, 1, ids));
	}

	/** Binds {@code values} from {@code index} (instants as the platform stores them); returns the next index. */
	int bindValues(PreparedStatement ps, int index, List<?> values) throws SQLException {
		for (Object value : values) {
			if (value instanceof Instant instant) {
				setInstant(ps, index++, instant);
			}
			else {
				ps.setObject(index++, value);
			}
		}
		return index;
	}

	// ---- rows

	/** A job whose error history is read from the errors table when first used (a claim's). */
	Job mapJob(ResultSet rs, int rowNum) throws SQLException {
		String id = rs.getString(1);
		return mapJob(rs, () -> errorRows(List.of(id)).getOrDefault(id, List.of()));
	}

	/**
	 * The jobs {@code sql} reads, each with its error history as of this read: the rows of all
	 * of them are read by one more query.
	 */
	List<Job> readJobs(String sql, PreparedStatementSetter params) {
		Map<String, List<String>> rows = new HashMap<>();
		List<Job> jobs = this.jdbc.query(sql, params, (rs, rowNum) -> {
			String id = rs.getString(1);
			return mapJob(rs, () -> rows.getOrDefault(id, List.of()));
		});
		// decoded when read, from these rows: a snapshot of this read, not a later query
		rows.putAll(errorRows(jobs.stream().map(Job::id).toList()));
		return jobs;
	}

	private Job mapJob(ResultSet rs, Supplier<List<String>> errorRows) throws SQLException {
		String id = rs.getString(1);
		return new Job(id, rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getInt(6),
				JobState.fromValue(rs.getString(7)), rs.getInt(8), rs.getInt(9), policy(rs.getString(10)),
				ErrorHistoryJson.readLazily(id, rs.getString(11), errorRows), rs.getBoolean(12), rs.getString(13),
				getInstant(rs, 14), getInstant(rs, 15), getInstant(rs, 16), getInstant(rs, 17), getInstant(rs, 18),
				getInstant(rs, 19), rs.getString(20), getInstant(rs, 21), getInstant(rs, 22));
	}

	/** The rows of these jobs' error histories by job id, oldest first: one JSON object each. */
	Map<String, List<String>> errorRows(List<String> ids) {
		Map<String, List<String>> rows = new HashMap<>();
		for (List<String> chunk : chunks(ids, CHUNK)) {
			this.jdbc.query("SELECT job_id, error FROM " + this.errorsTable + " WHERE job_id IN ("
					+ idMarkers(chunk.size()) + ") ORDER BY seq", (ps) -> bindValues(ps, 1, chunk),
					(RowCallbackHandler) (rs) -> rows.computeIfAbsent(rs.getString(1), (id) -> new ArrayList<>())
						.add(rs.getString(2)));
		}
		return rows;
	}

	/** A job's own policy fields, validated at enqueue; most jobs share a handful, so parse each once. */
	private RetryPolicy policy(String json) {
		return this.policies.get(json, RetryPolicy::parsePartial);
	}

	/** The job as claimed from {@code row} (read before the claim's UPDATE). */
	static Job claimed(Job row, String nodeId, Instant now, Instant lockedUntil) {
		return new Job(row.id(), row.type(), row.queue(), row.argsJson(), row.metaJson(), row.priority(),
				JobState.ACTIVE, row.attempt() + 1, row.maxAttempts(), row.retryPolicy(), row.errors(),
				row.deadLetter(), row.uniqueKey(), row.scheduledAt(), row.createdAt(), row.enqueuedAt(), now,
				row.completedAt(), row.discardedAt(), nodeId, lockedUntil, row.expiresAt());
	}

	// ---- enqueue

	/** One row to insert; it is enqueued when it is created ({@code enqueued_at = created_at}). */
	record InsertRow(String id, String type, String queue, String args, String meta, int priority, JobState state,
			int maxAttempts, String policyJson, @Nullable String uniqueKey, Instant scheduledAt, Instant createdAt,
			@Nullable Instant expiresAt) {
	}

	static final String INSERT_COLUMNS = "(id, type, queue, args, meta, priority, state, attempt, "
			+ "max_attempts, retry_policy, errors, dead_letter, unique_key, scheduled_at, created_at, enqueued_at, expires_at)";

	String insertSql(int rows) {
		String values = "(" + idParam() + ", ?, ?, " + jsonParam() + ", " + jsonParam() + ", ?, ?, 0, ?, "
				+ jsonParam() + ", '[]', FALSE, ?, ?, ?, ?, ?)";
		StringJoiner sql = new StringJoiner(", ", "INSERT INTO " + this.table + " " + INSERT_COLUMNS + " VALUES ", "");
		for (int i = 0; i < rows; i++) {
			sql.add(values);
		}
		return sql.toString();
	}

	/** Binds {@code row} from parameter {@code index}; returns the next free index. */
	int bindInsert(PreparedStatement ps, int index, InsertRow row) throws SQLException {
		ps.setString(index++, row.id());
		ps.setString(index++, row.type());
		ps.setString(index++, row.queue());
		ps.setString(index++, row.args());
		ps.setString(index++, row.meta());
		ps.setInt(index++, row.priority());
		ps.setString(index++, row.state().value());
		ps.setInt(index++, row.maxAttempts());
		ps.setString(index++, row.policyJson());
		ps.setString(index++, row.uniqueKey());
		setInstant(ps, index++, row.scheduledAt());
		setInstant(ps, index++, row.createdAt());
		setInstant(ps, index++, row.createdAt()); // enqueued_at
		setInstant(ps, index++, row.expiresAt());
		return index;
	}

	/**
	 * Inserts rows without unique keys and notifies listening workers of {@code notify}
	 * queues (on platforms that can).
	 */
	void insert(List<InsertRow> rows, Collection<String> notify) {
		insertPlain(rows);
	}

	/** Whether {@link #insert} writes this many rows in one statement (so atomically without a transaction). */
	boolean insertsInOneStatement(int rows) {
		return rows <= CHUNK;
	}

	/** Inserts rows without unique keys, in as few statements as the parameter limits allow. */
	void insertPlain(List<InsertRow> rows) {
		for (List<InsertRow> chunk : chunks(rows, CHUNK)) {
			this.jdbc.update(insertSql(chunk.size()), ps -> {
				int index = 1;
				for (InsertRow row : chunk) {
					index = bindInsert(ps, index, row);
				}
			});
		}
	}

	/**
	 * Inserts a row with a unique key unless a live job of the same type holds that key.
	 * @return the id of the live job holding the key after the call: {@code row.id()} when
	 * inserted, otherwise the existing job's id; {@code null} when the holder vanished
	 * meanwhile (the caller tries again)
	 */
	abstract @Nullable String insertUnique(InsertRow row);

	/** The id of the live job of {@code type} holding {@code uniqueKey}, or {@code null}. */
	@Nullable String findLiveIdByUniqueKey(String type, String uniqueKey) {
		return findLiveIdByUniqueKey(type, uniqueKey, "");
	}

	/**
	 * {@link #findLiveIdByUniqueKey(String, String)} with a locking clause appended
	 * ({@code ""} for a plain read).
	 */
	@Nullable String findLiveIdByUniqueKey(String type, String uniqueKey, String lock) {
		List<String> ids = this.jdbc.queryForList(
				"SELECT id FROM " + this.table + " WHERE " + liveUniqueKeyPredicate() + lock, String.class, type,
				uniqueKey);
		return ids.isEmpty() ? null : ids.get(0);
	}

	/** Tells listening workers that jobs were inserted into these queues (PostgreSQL only). */
	void notifyInserted(Collection<String> queues) {
	}

	/** The NOTIFY channel, or {@code null} when the platform has none. */
	@Nullable String notifyChannel() {
		return null;
	}

	/**
	 * A warning when nothing removes the job table's dead row versions and index entries
	 * (PostgreSQL without autovacuum for it), or {@code null}.
	 */
	@Nullable String vacuumWarning() {
		return null;
	}

	// ---- reads and dead letters

	/** The job with this id, if any. */
	Optional<Job> findById(String id) {
		return readJobs("SELECT " + SELECT_COLUMNS + " FROM " + this.table + " WHERE id = " + idParam(),
				(ps) -> ps.setString(1, id))
			.stream()
			.findFirst();
	}

	/**
	 * Cancels the job if it is live (scheduled, available, retryable or active) or pending; {@code true}
	 * if it did. An active job keeps its attempt and owner, so that the owner's outcome
	 * writes, guarded by state {@code active}, are rejected.
	 */
	boolean cancel(String id, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'cancelled', discarded_at = ?, locked_until = NULL"
				+ " WHERE id = " + idParam() + " AND state IN (" + LIVE + ", 'pending')", (ps) -> {
					setInstant(ps, 1, now);
					ps.setString(2, id);
				}) == 1;
	}

	/** {@link #cancel(String, Instant)} for these jobs in one statement; returns how many it cancelled. */
	int cancel(List<String> ids, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'cancelled', discarded_at = ?, locked_until = NULL"
				+ " WHERE id IN (" + idMarkers(ids.size()) + ") AND state IN (" + LIVE + ", 'pending')", (ps) -> {
					setInstant(ps, 1, now);
					bindValues(ps, 2, ids);
				});
	}

	/** Makes a pending job available from {@code now} (ojs-core §6.2 ACTIVATE); {@code true} if it did. */
	boolean activate(String id, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'available', scheduled_at = ?"
				+ " WHERE id = " + idParam() + " AND state = 'pending'", (ps) -> {
					setInstant(ps, 1, now);
					ps.setString(2, id);
				}) == 1;
	}

	/** Number of jobs per queue and state, queues in name order. */
	Map<String, Map<JobState, Long>> countByQueueAndState() {
		Map<String, Map<JobState, Long>> counts = new TreeMap<>();
		this.jdbc.query("SELECT queue, state, count(*) FROM " + this.table + " GROUP BY queue, state", (rs) -> {
			counts.computeIfAbsent(rs.getString(1), (queue) -> new EnumMap<>(JobState.class))
				.put(JobState.fromValue(rs.getString(2)), rs.getLong(3));
		});
		return counts;
	}

	/** A page of the dead letters matching {@code filter}, most recently discarded first. */
	List<Job> findDeadLetters(DeadLetterFilter filter, int offset, int limit) {
		DeadLetterWhere where = new DeadLetterWhere(filter);
		where.params.add(limit);
		where.params.add(offset);
		return readJobs("SELECT " + SELECT_COLUMNS + " FROM " + this.table + " WHERE " + where.sql
				+ " ORDER BY discarded_at DESC, id DESC LIMIT ? OFFSET ?", where::bind);
	}

	/** Dead letters after ({@code discardedAt}, {@code id}) in the newest-first order: a keyset page. */
	List<Job> findDeadLettersBefore(DeadLetterFilter filter, Instant discardedAt, String id, int limit) {
		DeadLetterWhere where = new DeadLetterWhere(filter);
		where.sql.append(" AND (discarded_at < ? OR (discarded_at = ? AND id < ").append(idParam()).append("))");
		where.params.add(discardedAt);
		where.params.add(discardedAt);
		where.params.add(id);
		where.params.add(limit);
		return readJobs("SELECT " + SELECT_COLUMNS + " FROM " + this.table + " WHERE " + where.sql
				+ " ORDER BY discarded_at DESC, id DESC LIMIT ?", where::bind);
	}

	long countDeadLetters(DeadLetterFilter filter) {
		DeadLetterWhere where = new DeadLetterWhere(filter);
		Long count = this.jdbc.query("SELECT count(*) FROM " + this.table + " WHERE " + where.sql, where::bind,
				(rs) -> rs.next() ? rs.getLong(1) : 0L);
		return (count != null) ? count : 0;
	}

	/** Number of dead letters per queue, in name order. */
	Map<String, Long> deadLetterCountsByQueue() {
		Map<String, Long> counts = new TreeMap<>();
		this.jdbc.query("SELECT queue, count(*) FROM " + this.table + " WHERE " + DEAD_LETTER + " GROUP BY queue",
				(rs) -> {
					counts.put(rs.getString(1), rs.getLong(2));
				});
		return counts;
	}

	/** Number of dead letters per last error type ({@code "unknown"} for none), in name order. */
	Map<String, Long> deadLetterCountsByErrorType() {
		Map<String, Long> counts = new TreeMap<>();
		this.jdbc.query("SELECT last_error_type, count(*) FROM " + this.table + " WHERE " + DEAD_LETTER
				+ " GROUP BY last_error_type", (rs) -> {
					counts.put(Objects.toString(rs.getString(1), "unknown"), rs.getLong(2));
				});
		return counts;
	}

	/** When dead letters were discarded, oldest to newest; both {@code null} when there are none. */
	record DiscardedRange(@Nullable Instant oldest, @Nullable Instant newest) {
	}

	DiscardedRange deadLetterDiscardedRange() {
		DiscardedRange range = this.jdbc.query(
				"SELECT min(discarded_at), max(discarded_at) FROM " + this.table + " WHERE " + DEAD_LETTER,
				(rs) -> rs.next() ? new DiscardedRange(getInstant(rs, 1), getInstant(rs, 2)) : null);
		return (range != null) ? range : new DiscardedRange(null, null);
	}

	/** A dead letter's id and unique key ({@code null} when it has none). */
	record DeadLetterKey(String id, @Nullable String uniqueKey) {
	}

	/** Id and unique key of each dead letter matching {@code filter}. */
	List<DeadLetterKey> findDeadLetterKeys(DeadLetterFilter filter) {
		DeadLetterWhere where = new DeadLetterWhere(filter);
		return this.jdbc.query("SELECT id, unique_key FROM " + this.table + " WHERE " + where.sql, where::bind,
				(rs, rowNum) -> new DeadLetterKey(rs.getString(1), rs.getString(2)));
	}

	/**
	 * Makes these dead letters available again as of {@code now}, from attempt 0 without
	 * their error type and reservation; returns how many were dead letters.
	 */
	int reviveDeadLetters(List<String> ids, Instant now) {
		return this.jdbc.update("UPDATE " + this.table + " SET state = 'available', attempt = 0,"
				+ " dead_letter = FALSE, last_error_type = NULL, scheduled_at = ?, enqueued_at = ?,"
				+ " discarded_at = NULL, started_at = NULL, locked_by = NULL, locked_until = NULL WHERE " + DEAD_LETTER
				+ " AND id IN (" + idMarkers(ids.size()) + ")", (ps) -> {
					setInstant(ps, 1, now);
					setInstant(ps, 2, now);
					int index = 3;
					for (String id : ids) {
						ps.setString(index++, id);
					}
				});
	}

	/** Deletes the job if it is a dead letter; {@code true} if it was. */
	boolean deleteDeadLetter(String id) {
		return deleteJobs(List.of(id), DEAD_LETTER, List.of()) == 1;
	}

	/** Reads the job table (no row): throws when it is missing or the database unreachable. */
	void checkTable() {
		this.jdbc.query("SELECT id FROM " + this.table + " WHERE id = " + idParam(), (rs) -> {
		}, new UUID(0, 0).toString());
	}

	/** The WHERE clause selecting the dead letters that match a filter, and its bound values. */
	private final class DeadLetterWhere {

		private final StringBuilder sql = new StringBuilder(DEAD_LETTER);

		private final List<Object> params = new ArrayList<>();

		DeadLetterWhere(DeadLetterFilter filter) {
			DeadLetterFilter f = (filter != null) ? filter : DeadLetterFilter.ALL;
			and("queue = ?", f.queue());
			and("type = ?", f.type());
			and("last_error_type = ?", f.errorType());
			and("discarded_at >= ?", f.from());
			and("discarded_at < ?", f.to());
		}

		private void and(String condition, @Nullable Object value) {
			if (value != null) {
				this.sql.append(" AND ").append(condition);
				this.params.add(value);
			}
		}

		void bind(PreparedStatement ps) throws SQLException {
			bindValues(ps, 1, this.params);
		}

	}

	// ---- published handlers

	private static final String HANDLER_COLUMNS = "type, queue, priority, application_policy, handler_policy,"
			+ " application, node_id, published_at";

	/**
	 * An insert of one handler row that replaces the row of its type; by default H2's
	 * {@code MERGE ... KEY}.
	 */
	String upsertHandlerSql() {
		return "MERGE INTO " + this.handlersTable + " (" + HANDLER_COLUMNS + ") KEY (type) VALUES (?, ?, ?, "
				+ jsonParam() + ", " + jsonParam() + ", ?, ?, ?)";
	}

	/** Inserts or replaces the row of each handler's type, in type order. */
	void publishHandlers(List<PublishedHandler> handlers) {
		List<PublishedHandler> sorted = handlers.stream().sorted(Comparator.comparing(PublishedHandler::type)).toList();
		executeBatch(upsertHandlerSql(), sorted, (ps, handler) -> {
			ps.setString(1, handler.type());
			ps.setString(2, handler.queue());
			ps.setInt(3, handler.priority());
			ps.setString(4, handler.applicationPolicy().toJson());
			ps.setString(5, handler.handlerPolicy().toJson());
			ps.setString(6, handler.application());
			ps.setString(7, handler.nodeId());
			setInstant(ps, 8, handler.publishedAt());
		});
	}

	/** The published handler of {@code type}, or {@code null}. */
	@Nullable PublishedHandler findHandler(String type) {
		List<PublishedHandler> found = this.jdbc.query(
				"SELECT " + HANDLER_COLUMNS + " FROM " + this.handlersTable + " WHERE type = ?", this::mapHandler, type);
		return found.isEmpty() ? null : found.get(0);
	}

	/** Every published handler, by type. */
	List<PublishedHandler> handlers() {
		return this.jdbc.query("SELECT " + HANDLER_COLUMNS + " FROM " + this.handlersTable + " ORDER BY type",
				this::mapHandler);
	}

	private PublishedHandler mapHandler(ResultSet rs, int rowNum) throws SQLException {
		return new PublishedHandler(rs.getString(1), rs.getString(2), rs.getInt(3), policy(rs.getString(4)),
				policy(rs.getString(5)), rs.getString(6), rs.getString(7), getInstant(rs, 8));
	}

	// ---- claim

	/**
	 * Claims up to {@code limit} due jobs of the given types from a queue in claim order
	 * (priority descending, then scheduled time, then id): each claimed job becomes
	 * {@code active}, its attempt is incremented, and it is reserved for {@code nodeId} until
	 * {@code now} plus its type's visibility timeout.
	 */
	abstract List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			Instant now);

	/** {@code locked_until} per type: one bind marker, or a CASE over the types. */
	static String lockedUntilExpression(Map<String, Duration> visibilityByType, String typeColumn) {
		if (new HashSet<>(visibilityByType.values()).size() == 1) {
			return "?";
		}
		StringBuilder sql = new StringBuilder("CASE ").append(typeColumn);
		for (int i = 0; i < visibilityByType.size(); i++) {
			sql.append(" WHEN ? THEN ?");
		}
		return sql.append(" END").toString();
	}

	/** Binds {@link #lockedUntilExpression}; returns the next free index. */
	int bindLockedUntil(PreparedStatement ps, int index, Map<String, Duration> visibilityByType, Instant now)
			throws SQLException {
		if (new HashSet<>(visibilityByType.values()).size() == 1) {
			setInstant(ps, index++, Timestamps.plus(now, visibilityByType.values().iterator().next()));
			return index;
		}
		for (Map.Entry<String, Duration> entry : visibilityByType.entrySet()) {
			ps.setString(index++, entry.getKey());
			setInstant(ps, index++, Timestamps.plus(now, entry.getValue()));
		}
		return index;
	}

	/** Whether a claim takes jobs of every type ({@link dev.ojs.worker.WorkerStore#ANY_TYPE}). */
	static boolean anyType(Map<String, Duration> visibilityByType) {
		return visibilityByType.size() == 1 && visibilityByType.containsKey(WorkerStore.ANY_TYPE);
	}

	/** The visibility timeout a claim gives a job of {@code type}. */
	static Duration visibility(Map<String, Duration> visibilityByType, String type) {
		Duration visibility = visibilityByType.get(type);
		return (visibility != null) ? visibility : Objects.requireNonNull(visibilityByType.get(WorkerStore.ANY_TYPE));
	}

	/** {@code AND type IN (?, ...)}, or nothing for a claim of every type. */
	static String typeFilter(List<String> types) {
		return types.isEmpty() ? "" : " AND type IN (" + markers(types.size()) + ")";
	}

	static String markers(int count) {
		return String.join(", ", Collections.nCopies(count, "?"));
	}

	/** {@code count} id bind markers, comma-separated, for an IN list. */
	String idMarkers(int count) {
		return String.join(", ", Collections.nCopies(count, idParam()));
	}

	// ---- attempt outcomes (guarded per row; PostgreSQL overrides with array statements)

	private String guard() {
		return " WHERE id = " + idParam() + " AND attempt = ? AND state = 'active' AND locked_by = ?";
	}

	private int bindGuard(PreparedStatement ps, int index, Job job) throws SQLException {
		ps.setString(index++, job.id());
		ps.setInt(index++, job.attempt());
		ps.setString(index++, job.lockedBy());
		return index;
	}

	/** Marks claimed jobs completed (or deletes them, with their error history); returns the ids actually written. */
	Set<String> complete(List<Job> jobs, Instant now, boolean delete) {
		if (delete) {
			return guardedBatch(jobs, Function.identity(), "DELETE FROM " + this.table + guard(), null,
					(ps, job) -> bindGuard(ps, 1, job), (deleted) -> {
						for (List<String> chunk : chunks(new ArrayList<>(deleted), CHUNK)) {
							deleteErrorsOfDeleted(chunk);
						}
					});
		}
		String sql = "UPDATE " + this.table + " SET state = 'completed', completed_at = ?, locked_until = NULL" + guard();
		return guardedBatch(jobs, Function.identity(), sql, null, (ps, job) -> {
			setInstant(ps, 1, now);
			bindGuard(ps, 2, job);
		}, NOTHING_MORE);
	}

	/**
	 * Records failed attempts; returns the ids actually written. With {@code expiredBefore}
	 * (the rescuer) a failure is only written while the reservation is still expired, so a
	 * heartbeat that just extended it wins.
	 */
	Set<String> fail(List<AttemptFailure> failures, @Nullable Instant expiredBefore) {
		String sql = "UPDATE " + this.table + " SET state = ?, scheduled_at = ?, last_error_type = ?, dead_letter = ?,"
				+ " discarded_at = ?, locked_until = NULL" + guard() + ((expiredBefore != null) ? " AND locked_until < ?" : "");
		return guardedBatch(failures, AttemptFailure::job, sql, expiredBefore, (ps, failure) -> {
			ps.setString(1, failure.state().value());
			setInstant(ps, 2, failure.scheduledAt());
			ps.setString(3, lastErrorType(failure));
			ps.setBoolean(4, failure.deadLetter());
			setInstant(ps, 5, failure.discardedAt());
			int index = bindGuard(ps, 6, failure.job());
			if (expiredBefore != null) {
				setInstant(ps, index, expiredBefore);
			}
		}, (written) -> appendErrors(failures.stream().filter((failure) -> written.contains(failure.job().id())).toList()));
	}

	/**
	 * Appends each failure's error to its job's history, and drops the entries of attempts
	 * before those the history keeps (spec §10.1 limit).
	 */
	private void appendErrors(List<AttemptFailure> failures) {
		List<AttemptFailure> appended = failures.stream().filter((failure) -> failure.error() != null).toList();
		if (!appended.isEmpty()) {
			this.jdbc.batchUpdate("INSERT INTO " + this.errorsTable + " (job_id, attempt, error) VALUES (" + idParam()
					+ ", ?, ?)", appended, CHUNK, (ps, failure) -> {
						ErrorEntry error = Objects.requireNonNull(failure.error());
						ps.setString(1, failure.job().id());
						ps.setInt(2, error.attempt());
						ps.setString(3, ErrorHistoryJson.writeEntry(error));
					});
		}
		List<AttemptFailure> trimmed = failures.stream().filter((failure) -> failure.oldestAttemptKept() > 1).toList();
		if (!trimmed.isEmpty()) {
			this.jdbc.batchUpdate("DELETE FROM " + this.errorsTable + " WHERE job_id = " + idParam() + " AND attempt < ?",
					trimmed, CHUNK, (ps, failure) -> {
						ps.setString(1, failure.job().id());
						ps.setInt(2, failure.oldestAttemptKept());
					});
		}
	}

	/**
	 * The stored {@code last_error_type}, cut to the column's length: the error that
	 * discarded the job, which dead letter statistics and filters read. A retryable job
	 * stores none (its history has the error): the column would otherwise be copied into
	 * every later version of its row.
	 */
	static @Nullable String lastErrorType(AttemptFailure failure) {
		ErrorEntry error = failure.error();
		return (failure.state() != JobState.DISCARDED || error == null) ? null
				: ErrorHistoryJson.errorType(error.type());
	}

	/** Returns claimed jobs that never started to {@code available}, without the attempt. */
	Set<String> release(List<Job> jobs) {
		String sql = "UPDATE " + this.table + " SET state = 'available', attempt = attempt - 1, locked_by = NULL, "
				+ "locked_until = NULL, started_at = NULL" + guard();
		return guardedBatch(jobs, Function.identity(), sql, null, (ps, job) -> bindGuard(ps, 1, job), NOTHING_MORE);
	}

	/** Extends the reservations {@code nodeId} holds on these jobs; returns how many it still held. */
	int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		int extended = 0;
		for (List<String> chunk : chunks(ids, CHUNK)) {
			extended += this.jdbc.update("UPDATE " + this.table + " SET locked_until = ? WHERE id IN ("
					+ idMarkers(chunk.size()) + ") AND state = 'active' AND locked_by = ?", ps -> {
						setInstant(ps, 1, lockedUntil);
						int index = 2;
						for (String id : chunk) {
							ps.setString(index++, id);
						}
						ps.setString(index, nodeId);
					});
		}
		return extended;
	}

	/** The ids of these claimed jobs that were cancelled. */
	Set<String> cancelled(List<Job> jobs) {
		Set<String> cancelled = new HashSet<>();
		for (List<Job> chunk : chunks(jobs, CHUNK)) {
			this.jdbc.query("SELECT id FROM " + this.table + " WHERE id IN (" + idMarkers(chunk.size())
					+ ") AND state = 'cancelled'", (ps) -> {
						int index = 1;
						for (Job job : chunk) {
							ps.setString(index++, job.id());
						}
					}, (rs) -> {
						cancelled.add(rs.getString(1).toLowerCase(Locale.ROOT));
					});
		}
		return cancelled;
	}

	/** Those of these claimed jobs whose reservation is still theirs: active, same attempt and owner. */
	List<Job> reservationsHeld(List<Job> jobs) {
		List<Job> held = new ArrayList<>();
		for (List<Job> chunk : chunks(jobs, CHUNK)) {
			held.addAll(guarded(chunk, null, ""));
		}
		return held;
	}

	/** Nothing more to write in a guarded batch's transaction. */
	private static final Consumer<Set<String>> NOTHING_MORE = (written) -> {
	};

	@FunctionalInterface
	interface RowBinder<T> {

		void bind(PreparedStatement ps, T item) throws SQLException;

	}

	/**
	 * Runs a guarded per-row statement for every item as JDBC batches in one transaction, or
	 * under a savepoint of the caller's (so a failed batch writes nothing and can be retried
	 * row by row), in id order (one lock
	 * order for every writer); returns the ids the guard let through, read from the update
	 * counts. A driver that reports {@link Statement#SUCCESS_NO_INFO} instead (MariaDB with
	 * {@code useBulkStmts=true}) cannot tell a written row from one the guard rejected: the
	 * batch is rolled back (to the savepoint), and from then on every guarded batch first locks its rows with
	 * {@code SELECT ... FOR UPDATE}, checks the guard on what it read, and writes only the
	 * rows that pass. {@code alsoWrite} gets the ids written, in the same transaction (the
	 * error history of the rows a failure wrote, or of those a completion deleted).
	 */
	private <T> Set<String> guardedBatch(List<T> items, Function<T, Job> jobOf, String sql,
			@Nullable Instant expiredBefore, RowBinder<T> binder, Consumer<Set<String>> alsoWrite) {
		List<T> sorted = new ArrayList<>(items);
		sorted.sort(Comparator.comparing((T item) -> jobOf.apply(item).id()));
		if (!this.lockBeforeBatch) {
			Set<String> written = this.batchTx.execute((status) -> {
				Set<String> ids = new HashSet<>();
				for (List<T> chunk : chunks(sorted, CHUNK)) {
					int[] counts = executeBatch(sql, chunk, binder);
					for (int i = 0; i < chunk.size(); i++) {
						if (counts[i] == Statement.SUCCESS_NO_INFO) {
							status.setRollbackOnly();
							return null;
						}
						if (counts[i] > 0) {
							ids.add(jobOf.apply(chunk.get(i)).id());
						}
					}
				}
				alsoWrite.accept(ids);
				return ids;
			});
			if (written != null) {
				return written;
			}
			this.lockBeforeBatch = true;
			logger.info("OJS: the JDBC driver reports no per-row update counts (e.g. MariaDB useBulkStmts=true);"
					+ " guarded writes now lock and check their rows first");
		}
		return this.batchTx.execute((status) -> {
			Set<String> ids = new HashSet<>();
			for (List<T> chunk : chunks(sorted, CHUNK)) {
				Set<String> held = new HashSet<>();
				guarded(chunk.stream().map(jobOf).toList(), expiredBefore, " FOR UPDATE").forEach((job) -> held.add(job.id()));
				List<T> writable = chunk.stream().filter((item) -> held.contains(jobOf.apply(item).id())).toList();
				if (!writable.isEmpty()) {
					executeBatch(sql, writable, binder);
				}
				ids.addAll(held);
			}
			alsoWrite.accept(ids);
			return ids;
		});
	}

	private <T> int[] executeBatch(String sql, List<T> chunk, RowBinder<T> binder) {
		return this.jdbc.batchUpdate(sql, new BatchPreparedStatementSetter() {

			@Override
			public void setValues(PreparedStatement ps, int i) throws SQLException {
				binder.bind(ps, chunk.get(i));
			}

			@Override
			public int getBatchSize() {
				return chunk.size();
			}

		});
	}

	/**
	 * Those of {@code jobs} whose row passes the write guard (active, same attempt and owner,
	 * and with {@code expiredBefore} a reservation expired before it), read with
	 * {@code suffix} (e.g. {@code FOR UPDATE}).
	 */
	private List<Job> guarded(List<Job> jobs, @Nullable Instant expiredBefore, String suffix) {
		Map<String, List<Job>> byId = new HashMap<>();
		jobs.forEach((job) -> byId.computeIfAbsent(job.id(), (id) -> new ArrayList<>()).add(job));
		List<Job> held = new ArrayList<>();
		this.jdbc.query("SELECT id, attempt, locked_by, locked_until FROM " + this.table + " WHERE id IN ("
				+ idMarkers(byId.size()) + ") AND state = 'active' ORDER BY id"
				+ suffix, (ps) -> {
					int index = 1;
					for (String id : byId.keySet()) {
						ps.setString(index++, id);
					}
				}, (rs) -> {
					int attempt = rs.getInt(2);
					String owner = rs.getString(3);
					Instant lockedUntil = getInstant(rs, 4);
					for (Job job : byId.getOrDefault(rs.getString(1).toLowerCase(Locale.ROOT), List.of())) {
						if (job.attempt() == attempt && Objects.equals(owner, job.lockedBy()) && (expiredBefore == null
								|| (lockedUntil != null && lockedUntil.isBefore(expiredBefore)))) {
							held.add(job);
						}
					}
				});
		return held;
	}

	// ---- rescuer, polling, pruning

	/**
	 * Active jobs whose reservation expired before {@code now}, oldest expiry first, locked
	 * for the caller's transaction; rows another rescuer (or a heartbeat) holds are skipped,
	 * so concurrent rescuers never wait for each other nor deadlock.
	 */
	List<Job> findExpired(Instant now, int limit) {
		return this.jdbc.query("SELECT " + SELECT_COLUMNS + " FROM " + this.table
				+ " WHERE state = 'active' AND locked_until < ? ORDER BY locked_until, id LIMIT ? FOR UPDATE SKIP LOCKED",
				ps -> {
					setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, this::mapJob);
	}

	/**
	 * Discards up to {@code limit} jobs still waiting to run whose {@code expires_at} is at or
	 * before {@code now}, earliest expiry first, in the caller's transaction: the rows are
	 * locked (skipping those a claim or another expirer holds) and become {@code discarded}
	 * with {@code discarded_at = now}, no error entry and no dead letter.
	 * @return the jobs discarded, as they are now
	 */
	List<Job> expire(Instant now, int limit) {
		List<Job> expired = this.jdbc.query(expiredSelect(), ps -> {
					setInstant(ps, 1, now);
					ps.setInt(2, limit);
				}, this::mapJob);
		if (!expired.isEmpty()) {
			this.jdbc.update("UPDATE " + this.table + " SET state = 'discarded', discarded_at = ?, locked_by = NULL,"
					+ " locked_until = NULL WHERE state IN (" + EXPIRABLE + ") AND id IN ("
					+ String.join(", ", Collections.nCopies(expired.size(), idParam())) + ")", ps -> {
						setInstant(ps, 1, now);
						int index = 2;
						for (Job job : expired) {
							ps.setString(index++, job.id());
						}
					});
		}
		return expired.stream().map((row) -> expired(row, now)).toList();
	}

	/** The job as the expirer left {@code row} (read before its UPDATE). */
	static Job expired(Job row, Instant now) {
		return new Job(row.id(), row.type(), row.queue(), row.argsJson(), row.metaJson(), row.priority(),
				JobState.DISCARDED, row.attempt(), row.maxAttempts(), row.retryPolicy(), row.errors(), false,
				row.uniqueKey(), row.scheduledAt(), row.createdAt(), row.enqueuedAt(), row.startedAt(), null, now, null,
				null, row.expiresAt());
	}

	/** The expired jobs ({@code now}, {@code limit}), locked, skipping those another transaction holds. */
	String expiredSelect() {
		return "SELECT " + SELECT_COLUMNS + " FROM " + this.table + " WHERE " + expiredPredicate() + " ORDER BY "
				+ expiryOrder() + " LIMIT ? FOR UPDATE SKIP LOCKED";
	}

	/** Jobs waiting to run that expired by {@code ?}; PostgreSQL's partial index holds only those. */
	String expiredPredicate() {
		return "expires_at IS NOT NULL AND expires_at <= ? AND state IN (" + EXPIRABLE + ")";
	}

	/** The order of {@link #expire}: earliest expiry first. */
	String expiryOrder() {
		return "expires_at";
	}

	/**
	 * The earliest {@code limit} distinct {@code scheduled_at} after {@code now} of the
	 * queue's scheduled and retryable jobs, earliest first: one index range per state, each
	 * stopping after {@code limit} rows.
	 */
	List<Instant> nextDueTimes(String queue, Instant now, int limit) {
		String due = "SELECT scheduled_at FROM " + this.table + " WHERE state = ? AND queue = ? AND scheduled_at > ?"
				+ " ORDER BY scheduled_at LIMIT ?";
		List<Instant> times = this.jdbc.query("(" + due + ") UNION ALL (" + due + ")", ps -> {
			int index = 1;
			for (JobState state : List.of(JobState.SCHEDULED, JobState.RETRYABLE)) {
				ps.setString(index++, state.value());
				ps.setString(index++, queue);
				setInstant(ps, index++, now);
				ps.setInt(index++, limit);
			}
		}, (rs, rowNum) -> getInstant(rs, 1));
		return times.stream().sorted().distinct().limit(limit).toList();
	}

	/** Deletes up to {@code limit} jobs completed before {@code cutoff}, oldest first. */
	int deleteCompletedBefore(Instant cutoff, int limit) {
		return deleteOlderThan("state = 'completed' AND completed_at < ?", "completed_at", cutoff, limit);
	}

	/** Deletes up to {@code limit} plain discarded and cancelled jobs discarded before {@code cutoff}, oldest first. */
	int deleteDiscardedBefore(Instant cutoff, int limit) {
		return deleteOlderThan("state IN ('discarded', 'cancelled') AND dead_letter = FALSE AND discarded_at < ?",
				"discarded_at", cutoff, limit);
	}

	/** Deletes up to {@code limit} dead letters discarded before {@code cutoff}, oldest first. */
	int deleteDeadLettersBefore(Instant cutoff, int limit) {
		return deleteOlderThan(DEAD_LETTER + " AND discarded_at < ?", "discarded_at, id", cutoff, limit);
	}

	private int deleteOlderThan(String where, String order, Instant cutoff, int limit) {
		return deleteJobs(where, List.of(cutoff), order, limit);
	}

	/** Where a dead letter stands in age order: its {@code discarded_at}, then its id. */
	record DeadLetterPosition(Instant discardedAt, String id) {
	}

	/** The {@code n}-th newest dead letter (1-based), or {@code null} when there are fewer. */
	@Nullable DeadLetterPosition newestDeadLetter(int n) {
		List<DeadLetterPosition> rows = this.jdbc.query("SELECT discarded_at, id FROM " + this.table
				+ " WHERE " + DEAD_LETTER + " ORDER BY discarded_at DESC, id DESC LIMIT 1 OFFSET ?",
				(ps) -> ps.setInt(1, n - 1), (rs, rowNum) -> new DeadLetterPosition(getInstant(rs, 1), rs.getString(2)));
		return rows.isEmpty() ? null : rows.get(0);
	}

	/** Deletes up to {@code limit} of the dead letters ordered strictly before {@code position}, oldest first. */
	int deleteDeadLettersBefore(DeadLetterPosition position, int limit) {
		return deleteJobs(DEAD_LETTER + " AND (discarded_at < ? OR (discarded_at = ? AND id < " + idParam() + "))",
				List.of(position.discardedAt(), position.discardedAt(), position.id()), "discarded_at, id", limit);
	}

	// ---- queue states (ojs-queue-config.md §5.1)

	private static final String QUEUE_COLUMNS = "name, paused, paused_at, rate_limit, rate_period_ms";

	/**
	 * Pauses or resumes a queue, creating its row when it has none; {@code paused_at} is
	 * kept when the queue already was in that state.
	 */
	void setPaused(String queue, boolean paused, Instant now) {
		if (updatePaused(queue, paused, now) > 0) {
			return;
		}
		try {
			this.jdbc.update("INSERT INTO " + this.queuesTable + " (name, paused, paused_at) VALUES (?, ?, ?)", (ps) -> {
				ps.setString(1, queue);
				ps.setBoolean(2, paused);
				setInstant(ps, 3, paused ? now : null);
			});
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			updatePaused(queue, paused, now);
		}
	}

	private int updatePaused(String queue, boolean paused, Instant now) {
		// paused_at first: MariaDB assigns left to right, and would compare with the new paused
		return this.jdbc.update("UPDATE " + this.queuesTable
				+ " SET paused_at = CASE WHEN paused = ? THEN paused_at ELSE ? END, paused = ? WHERE name = ?", (ps) -> {
					ps.setBoolean(1, paused);
					setInstant(ps, 2, paused ? now : null);
					ps.setBoolean(3, paused);
					ps.setString(4, queue);
				});
	}

	/** The stored state of a queue, if it has one. */
	Optional<QueueState> findQueue(String queue) {
		return this.jdbc
			.query("SELECT " + QUEUE_COLUMNS + " FROM " + this.queuesTable + " WHERE name = ?", this::mapQueue, queue)
			.stream()
			.findFirst();
	}

	/** Every queue with a stored state, in name order. */
	List<QueueState> queues() {
		return this.jdbc.query("SELECT " + QUEUE_COLUMNS + " FROM " + this.queuesTable + " ORDER BY name",
				this::mapQueue);
	}

	/** The names of the paused queues. */
	Set<String> pausedQueues() {
		return new HashSet<>(this.jdbc.queryForList(
				"SELECT name FROM " + this.queuesTable + " WHERE paused = TRUE", String.class));
	}

	private QueueState mapQueue(ResultSet rs, int rowNum) throws SQLException {
		return new QueueState(rs.getString(1), rs.getBoolean(2), getInstant(rs, 3), rateLimit(rs, 4));
	}

	// ---- queue rate limits (ojs-queue-config.md §6.2, §8.3)

	/** A queue's rate limit and its bucket's theoretical arrival time (epoch ns), as stored. */
	record RateBucket(RateLimit limit, @Nullable Long tat) {
	}

	/** Sets or (with {@code null}) removes a queue's rate limit, creating its row when it has none. */
	void setRateLimit(String queue, @Nullable RateLimit limit) {
		String update = "UPDATE " + this.queuesTable + " SET rate_limit = ?, rate_period_ms = ? WHERE name = ?";
		PreparedStatementSetter values = (ps) -> {
			ps.setObject(1, (limit != null) ? limit.limit() : null, Types.INTEGER);
			ps.setObject(2, (limit != null) ? limit.period().toMillis() : null, Types.BIGINT);
			ps.setString(3, queue);
		};
		if (this.jdbc.update(update, values) > 0) {
			return;
		}
		try {
			this.jdbc.update("INSERT INTO " + this.queuesTable + " (rate_limit, rate_period_ms, name, paused)"
					+ " VALUES (?, ?, ?, FALSE)", values);
		}
		catch (DuplicateKeyException ex) {
			// inserted concurrently: now there is a row to update
			this.jdbc.update(update, values);
		}
	}

	/**
	 * Locks the queue's row until the caller's transaction ends and reads its bucket, so the
	 * claims of one rate-limited queue draw from it one at a time on every node.
	 */
	@Nullable RateBucket lockRateBucket(String queue) {
		List<RateBucket> buckets = this.jdbc.query("SELECT rate_limit, rate_period_ms, rate_tat FROM "
				+ this.queuesTable + " WHERE name = ? FOR UPDATE", (rs, rowNum) -> {
					RateLimit limit = rateLimit(rs, 1);
					long tat = rs.getLong(3);
					return (limit != null) ? new RateBucket(limit, rs.wasNull() ? null : tat) : null;
				}, queue);
		return buckets.isEmpty() ? null : buckets.get(0);
	}

	/** Stores the bucket's theoretical arrival time after a claim drew from it. */
	void setRateTat(String queue, long tat) {
		this.jdbc.update("UPDATE " + this.queuesTable + " SET rate_tat = ? WHERE name = ?", (ps) -> {
			ps.setLong(1, tat);
			ps.setString(2, queue);
		});
	}

	private static @Nullable RateLimit rateLimit(ResultSet rs, int column) throws SQLException {
		int limit = rs.getInt(column);
		if (rs.wasNull()) {
			return null;
		}
		long periodMillis = rs.getLong(column + 1);
		return rs.wasNull() ? null : new RateLimit(limit, Duration.ofMillis(periodMillis));
	}

	// ---- helpers

	static <T> List<List<T>> chunks(List<T> items, int size) {
		if (items.isEmpty()) {
			return List.of();
		}
		if (items.size() <= size) {
			return List.of(items);
		}
		List<List<T>> chunks = new ArrayList<>();
		for (int from = 0; from < items.size(); from += size) {
			chunks.add(items.subList(from, Math.min(items.size(), from + size)));
		}
		return chunks;
	}

}

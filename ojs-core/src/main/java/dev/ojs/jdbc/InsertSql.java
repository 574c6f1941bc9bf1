package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.job.UniqueScope;
import dev.ojs.job.WorkflowPlace;

/**
 * The SQL of job inserts: multi-row {@code VALUES} in chunks of {@value #CHUNK} rows, and
 * the insert of a row with a unique key, which each platform writes its own way
 * ({@link PostgresInsertSql}, {@link MariaDbInsertSql}, {@link H2InsertSql}). An insert is
 * atomic: in the caller's transaction, as one auto-committed statement, or in a transaction
 * of its own. Workers are told of the jobs inserted as the insert commits: this store's
 * through {@link InsertCallbacks}, on PostgreSQL every process's through a {@code NOTIFY} that
 * follows the commit ({@link PostgresNotifier}).
 */
abstract class InsertSql extends SqlSupport {

	private static final int UNIQUE_INSERT_TRIES = 10;

	static final String INSERT_COLUMNS = "(id, type, queue, args, meta, priority, state, attempt, "
			+ "max_attempts, retry_policy, errors, dead_letter, unique_key, scheduled_at, created_at, enqueued_at, expires_at,"
			+ " timeout_ms, visibility_timeout_ms, concurrency_key, sequence_key)";

	/**
	 * {@link #INSERT_COLUMNS} and the workflow columns, for rows of which one is a job of a
	 * workflow: plain inserts keep the shorter statement.
	 */
	static final String PLACED_INSERT_COLUMNS = INSERT_COLUMNS.substring(0, INSERT_COLUMNS.length() - 1)
			+ ", workflow_id, workflow_type, workflow_step, workflow_role)";

	/**
	 * A transaction for inserts with unique keys: a key's live holder is read after waiting
	 * for a concurrent insert, and must be seen as committed meanwhile (MariaDB's default
	 * REPEATABLE READ would not).
	 */
	private final TransactionTemplate uniqueTx;

	/**
	 * A transaction for inserts without unique keys: the connection's isolation level is
	 * left alone (checking it costs pgjdbc a round trip).
	 */
	private final TransactionTemplate plainTx;

	/** Whether connections come in auto-commit mode; {@code null} until the first insert asks. */
	private volatile @Nullable Boolean autoCommit;

	/** The channel of {@code NOTIFY}, or {@code null} when the platform has none. */
	private final @Nullable String notifyChannel;

	private final InsertCallbacks listeners;

	InsertSql(SqlSupport shared, @Nullable String notifyChannel) {
		super(shared);
		this.notifyChannel = notifyChannel;
		this.listeners = new InsertCallbacks(shared.dataSource, notifyChannel);
		this.uniqueTx = transaction(TransactionDefinition.PROPAGATION_REQUIRED,
				TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.plainTx = transaction(TransactionDefinition.PROPAGATION_REQUIRED, TransactionDefinition.ISOLATION_DEFAULT);
	}

	/**
	 * Inserts jobs created at {@code now}, all or nothing, each row built (and so validated)
	 * before any is written; a chosen id inserted concurrently, outside a caller's transaction,
	 * is found by a second try.
	 */
	List<String> insert(List<NewJob> jobs, Instant now) {
		List<InsertRow> rows = new ArrayList<>(jobs.size());
		boolean unique = false;
		boolean chosenIds = false;
		for (NewJob job : jobs) {
			rows.add(InsertRow.of(job, now));
			chosenIds |= job.id() != null;
			unique |= job.uniqueKey() != null || job.id() != null;
		}
		try {
			return insert(rows, unique);
		}
		catch (DuplicateKeyException ex) {
			if (!chosenIds || TransactionSynchronizationManager.hasResource(this.dataSource)) {
				throw ex;
			}
			return insert(rows, unique);
		}
	}

	/**
	 * Inserts the rows, all or nothing: in the caller's transaction when one is bound to the
	 * data source; as one auto-committed statement when they fit one and have no unique keys;
	 * otherwise in a transaction of its own (READ COMMITTED when rows have unique keys).
	 * @param unique whether some rows have a unique key or a chosen id
	 * @return each row's id, or the id of the live job that holds its unique key (a row whose
	 * chosen id is stored: that id, nothing inserted)
	 */
	List<String> insert(List<InsertRow> rows, boolean unique) {
		if (TransactionSynchronizationManager.hasResource(this.dataSource)
				|| (!unique && insertsInOneStatement(rows.size()) && autoCommit())) {
			return write(rows);
		}
		return (unique ? this.uniqueTx : this.plainTx).execute((status) -> write(rows));
	}

	private List<String> write(List<InsertRow> rows) {
		String[] ids = new String[rows.size()];
		List<InsertRow> plain = new ArrayList<>(rows.size());
		Map<List<String>, Integer> firstWithKey = new HashMap<>();
		Set<String> queues = new LinkedHashSet<>();
		Map<String, Integer> firstWithId = new HashMap<>();
		boolean sequenced = false;
		for (int i = 0; i < rows.size(); i++) {
			InsertRow row = rows.get(i);
			sequenced |= row.sequenceKey() != null;
			if (row.chosenId()) {
				// a chosen id that is stored (or comes earlier in the batch) is that job
				Integer first = firstWithId.putIfAbsent(row.id(), i);
				if (first != null || exists(row.id())) {
					ids[i] = (first != null) ? ids[first] : row.id();
					continue;
				}
			}
			// unique per type among live jobs
			List<String> key = (row.uniqueKey() != null) ? List.of(row.type(), row.uniqueKey()) : null;
			if (key == null) {
				plain.add(row);
				ids[i] = row.id();
			}
			else if (firstWithKey.containsKey(key)) {
				// a duplicate within the batch resolves to the first job with that key
				ids[i] = ids[firstWithKey.get(key)];
			}
			else {
				firstWithKey.put(key, i);
				ids[i] = insertOrFind(row);
			}
			if (row.state() != JobState.PENDING) {
				// a held job waits for its activation, which notifies then
				queues.add(row.queue());
			}
		}
		if (!plain.isEmpty()) {
			insertPlain(plain);
		}
		if (sequenced) {
			// this node's claims check sequences from their next one on
			AfterCommit.run(this.sequenceKeys::inserted);
		}
		claimable(queues);
		return List.of(ids);
	}

	private String insertOrFind(InsertRow row) {
		for (int i = 0; i < UNIQUE_INSERT_TRIES; i++) {
			if (row.uniqueScope() != null) {
				release(row, row.uniqueScope());
			}
			String id = insertUnique(row);
			if (id != null) {
				return id;
			}
		}
		// the holder keeps vanishing, or (H2) a REPEATABLE READ snapshot cannot see it
		throw new ConcurrencyFailureException("Could not insert or find a live " + row.type()
				+ " job with unique key " + row.uniqueKey() + "; retry the transaction");
	}

	/**
	 * Decision 35: the live holder of the row's key that does not count as a duplicate
	 * (created before the period, or in a state the scope leaves out) gives up its key, in the
	 * insert's transaction. Such a holder is locked by primary key before anything else, so
	 * concurrent inserts of the key queue on that one row lock and hold no locks in the unique
	 * index meanwhile: on InnoDB, releasing through the unique index and then inserting made
	 * two scans of the key's index range (released holders stay there, delete-marked, until
	 * purged) lock its entries in different orders, a deadlock.
	 */
	private void release(InsertRow row, UniqueScope scope) {
		List<String> released = scope.releasedStates().stream().map(JobState::value).toList();
		StringJoiner counts = new StringJoiner(" OR ", "(", ")");
		if (scope.period() != null) {
			counts.add("created_at < ?");
		}
		if (!released.isEmpty()) {
			counts.add("state IN (" + String.join(", ", java.util.Collections.nCopies(released.size(), "?")) + ")");
		}
		if (counts.length() == 2) {
			return;
		}
		String releasable = "CASE WHEN " + liveUniqueKeyPredicate() + " AND " + counts + " THEN 1 ELSE 0 END";
		for (int i = 0; i < UNIQUE_INSERT_TRIES; i++) {
			// without locks: a holder that keeps its key is left to insertUnique
			List<String> holders = this.jdbc.query(
					"SELECT id FROM " + this.table + " WHERE " + liveUniqueKeyPredicate() + " AND " + counts,
					(ps) -> bindReleasable(ps, 1, row, scope, released), (rs, rowNum) -> rs.getString(1));
			if (holders.isEmpty()) {
				return;
			}
			// by primary key alone, so that no plan locks the unique index first
			List<Boolean> still = this.jdbc.query(
					"SELECT " + releasable + " FROM " + this.table + " WHERE id = " + idParam() + " FOR UPDATE",
					(ps) -> ps.setString(bindReleasable(ps, 1, row, scope, released), holders.get(0)),
					(rs, rowNum) -> rs.getBoolean(1));
			if (still.equals(List.of(true))) {
				this.jdbc.update("UPDATE " + this.table + " SET unique_key = NULL WHERE id = " + idParam(),
						holders.get(0));
				return;
			}
			// it gave up its key or ended meanwhile: look at the new holder
		}
	}

	/** Binds the parameters of the live and releasable predicates from {@code index}; returns the next. */
	private int bindReleasable(PreparedStatement ps, int index, InsertRow row, UniqueScope scope, List<String> released)
			throws SQLException {
		ps.setString(index++, row.type());
		ps.setString(index++, row.uniqueKey());
		if (scope.period() != null) {
			setInstant(ps, index++, row.createdAt().minus(scope.period()));
		}
		for (String state : released) {
			ps.setString(index++, state);
		}
		return index;
	}

	/** Whether a job with this id is stored. */
	private boolean exists(String id) {
		return !this.jdbc.queryForList("SELECT id FROM " + this.table + " WHERE id = " + idParam(), String.class, id)
			.isEmpty();
	}

	/** Whether the data source hands out connections in auto-commit mode (read once). */
	private boolean autoCommit() {
		Boolean autoCommit = this.autoCommit;
		if (autoCommit == null) {
			autoCommit = this.jdbc.execute((ConnectionCallback<Boolean>) Connection::getAutoCommit);
			this.autoCommit = autoCommit;
		}
		return Boolean.TRUE.equals(autoCommit);
	}

	// ---- rows without unique keys

	/** Inserts rows without unique keys. */
	void insertPlain(List<InsertRow> rows) {
		for (List<InsertRow> chunk : chunks(rows, CHUNK)) {
			boolean placed = InsertRow.anyPlaced(chunk);
			this.jdbc.update(insertSql(chunk.size(), placed), ps -> {
				int index = 1;
				for (InsertRow row : chunk) {
					index = bind(ps, index, row, placed);
				}
			});
		}
	}

	/** Whether {@link #insertPlain} writes this many rows in one statement (so atomically without a transaction). */
	boolean insertsInOneStatement(int rows) {
		return rows <= CHUNK;
	}

	/** The insert of one row, as {@link #bind(PreparedStatement, int, InsertRow, boolean)} binds it. */
	String insertSql(InsertRow row) {
		return insertSql(1, row.placed());
	}

	/**
	 * The insert of {@code rows} rows.
	 * @param placed whether it writes the workflow columns too
	 */
	String insertSql(int rows, boolean placed) {
		String values = "(" + idParam() + ", ?, ?, " + jsonParam() + ", " + jsonParam() + ", ?, ?, 0, ?, "
				+ jsonParam() + ", '[]', FALSE, ?, ?, ?, ?, ?, ?, ?, ?, ?" + (placed ? ", " + idParam() + ", ?, ?, ?)" : ")");
		StringJoiner sql = new StringJoiner(", ",
				"INSERT INTO " + this.table + " " + (placed ? PLACED_INSERT_COLUMNS : INSERT_COLUMNS) + " VALUES ", "");
		for (int i = 0; i < rows; i++) {
			sql.add(values);
		}
		return sql.toString();
	}

	/** Binds {@code row} for {@link #insertSql(InsertRow)} from parameter {@code index}; returns the next free index. */
	int bind(PreparedStatement ps, int index, InsertRow row) throws SQLException {
		return bind(ps, index, row, row.placed());
	}

	/**
	 * Binds {@code row} from parameter {@code index}, with its workflow columns when
	 * {@code placed} (null for a plain job among jobs of a workflow); returns the next free index.
	 */
	int bind(PreparedStatement ps, int index, InsertRow row, boolean placed) throws SQLException {
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
		ps.setObject(index++, row.timeoutMs(), Types.BIGINT);
		ps.setObject(index++, row.visibilityTimeoutMs(), Types.BIGINT);
		ps.setString(index++, row.concurrencyKey());
		ps.setString(index++, row.sequenceKey());
		if (placed) {
			WorkflowPlace place = row.workflowPlace();
			ps.setString(index++, row.workflowId());
			ps.setString(index++, (place != null) ? place.type() : null);
			ps.setObject(index++, (place != null) ? place.step() : null, Types.INTEGER);
			ps.setString(index++, (place != null) ? place.role() : null);
		}
		return index;
	}

	// ---- unique keys

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

	/**
	 * Predicate selecting the live job of type {@code ?} with unique key {@code ?}: a key is
	 * unique per type among live jobs. By default the generated column {@code live_unique_key},
	 * the key while the job is live.
	 */
	String liveUniqueKeyPredicate() {
		return "type = ? AND live_unique_key = ?";
	}

	// ---- notifications

	/** Tells the workers that a job of {@code queue} became claimable (an activated one). */
	void activated(String queue) {
		claimable(List.of(queue));
	}

	/**
	 * Tells the workers, this process's and on PostgreSQL every process's, that jobs of these
	 * queues may be claimable: inserted, activated, or let through by a freed slot.
	 */
	void claimable(Collection<String> queues) {
		if (notifyChannel() != null) {
			notifyInserted(queues);
		}
		this.listeners.inserted(queues);
	}

	/** Tells {@code onInsert} of inserts until the returned handle is closed. */
	AutoCloseable listen(Consumer<@Nullable String> onInsert) {
		return this.listeners.listen(onInsert);
	}

	/** Tells other processes' workers, once the caller's transaction commits, that jobs of these queues may be claimable (PostgreSQL only). */
	void notifyInserted(Collection<String> queues) {
	}

	/** The NOTIFY channel, or {@code null} when the platform has none. */
	final @Nullable String notifyChannel() {
		return this.notifyChannel;
	}

}

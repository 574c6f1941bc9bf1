package dev.ojs.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.Timestamps;
import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.worker.NodeInfo;
import dev.ojs.worker.RetentionSettings;
import dev.ojs.worker.WorkerStore;

/**
 * The job store on the table {@code <prefix>jobs} (and {@code <prefix>queues} for paused
 * queues) of the application's database (PostgreSQL, MariaDB/MySQL or H2): the application's
 * {@link JobStore} and the worker's
 * {@link WorkerStore}. It validates new jobs and runs its {@link JdbcDialect}'s statements
 * in their transactions, retry loops and chunks. An insert joins the caller's transaction
 * (atomic outbox); timestamps come from the application's {@link Clock}, never the
 * database's, so nodes sharing a database need synchronised clocks.
 */
public class JdbcJobStore implements JobStore, WorkerStore {

	private static final Log logger = LogFactory.getLog(JdbcJobStore.class);

	/** SQLState classes of errors that pass: connection, transaction rollback, resources, operator intervention. */
	private static final Set<String> TRANSIENT_SQL_STATES = Set.of("08", "40", "53", "57");

	/** Length of the {@code type}, {@code queue} and {@code unique_key} columns. */
	static final int MAX_NAME_LENGTH = 255;

	private static final int UNIQUE_INSERT_TRIES = 10;

	private static final int PRUNE_CHUNK = 5000;

	private static final int PRUNE_MAX_CHUNKS = 200;

	/** Per-minute statistics are kept at least this long. */
	static final Duration STATS_RETENTION = Duration.ofHours(24);

	private final DataSource dataSource;

	private final JdbcStoreSettings settings;

	private final Clock clock;

	private final JdbcDialect dialect;

	/** Claims of rate-limited queues draw from their buckets. */
	private final QueueRateLimits rateLimits;

	/** The nodes and statistics tables, written by the worker. */
	private final AdminDialect admin;

	/** Makes an insert with unique keys and without a caller's transaction atomic. */
	private final TransactionTemplate uniqueInsertTx;

	/**
	 * Makes an insert without unique keys and without a caller's transaction atomic: the
	 * connection's isolation level is left alone (checking it costs pgjdbc a round trip).
	 */
	private final TransactionTemplate plainInsertTx;

	/** The callbacks of {@link #listenForInserts}, told of this store's own inserts as they commit. */
	private final List<Consumer<@Nullable String>> insertListeners = new CopyOnWriteArrayList<>();

	/** Whether connections come in auto-commit mode; {@code null} until the first insert asks. */
	private volatile @Nullable Boolean autoCommit;

	public JdbcJobStore(DataSource dataSource, JdbcStoreSettings settings) {
		this(dataSource, settings, Clock.systemUTC());
	}

	public JdbcJobStore(DataSource dataSource, JdbcStoreSettings settings, Clock clock) {
		this(dataSource, settings, JdbcPlatform.detect(dataSource), clock);
	}

	public JdbcJobStore(DataSource dataSource, JdbcStoreSettings settings, JdbcPlatform platform, Clock clock) {
		this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
		this.settings = Objects.requireNonNull(settings, "settings must not be null");
		this.clock = Objects.requireNonNull(clock, "clock must not be null");
		this.dialect = JdbcDialect.create(platform, settings, dataSource);
		this.admin = new AdminDialect(this.dialect, settings);
		this.rateLimits = new QueueRateLimits(this.dialect);
		DataSourceTransactionManager transactions = new DataSourceTransactionManager(dataSource);
		this.plainInsertTx = new TransactionTemplate(transactions);
		this.uniqueInsertTx = new TransactionTemplate(transactions);
		// a unique key's live holder is read after waiting for a concurrent insert: it must see
		// what committed meanwhile (MariaDB's default REPEATABLE READ would not)
		this.uniqueInsertTx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/** The data source the store writes to. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	public JdbcStoreSettings settings() {
		return this.settings;
	}

	public JdbcPlatform platform() {
		return this.dialect.platform;
	}

	/** The SQL of this store's platform, for the stores of other tables in the same database. */
	JdbcDialect dialect() {
		return this.dialect;
	}

	/** The current instant at the precision stored: microseconds. */
	public Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	// ---- JobStore

	/**
	 * {@inheritDoc}
	 * <p>
	 * All or nothing: the jobs are written in the caller's transaction when one is bound to
	 * this store's data source, otherwise in a transaction of their own.
	 * @throws IllegalArgumentException when a job's type is blank, its type, queue or unique
	 * key is longer than {@value #MAX_NAME_LENGTH} characters, or its {@code runAt} is after
	 * {@link Timestamps#MAX}; nothing is written then
	 */
	@Override
	public List<String> insert(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		Instant now = now();
		// build (and so validate) every row before writing any
		List<JdbcDialect.InsertRow> rows = new ArrayList<>(jobs.size());
		boolean unique = false;
		for (NewJob job : jobs) {
			rows.add(row(job, now));
			unique |= job.uniqueKey() != null;
		}
		if (TransactionSynchronizationManager.hasResource(this.dataSource)
				|| (!unique && this.dialect.insertsInOneStatement(rows.size()) && autoCommit())) {
			// in the caller's transaction, or one auto-committed statement, atomic by itself
			return write(rows);
		}
		return (unique ? this.uniqueInsertTx : this.plainInsertTx).execute((status) -> write(rows));
	}

	/** Whether the data source hands out connections in auto-commit mode (read once). */
	private boolean autoCommit() {
		Boolean autoCommit = this.autoCommit;
		if (autoCommit == null) {
			autoCommit = this.dialect.jdbc.execute((ConnectionCallback<Boolean>) Connection::getAutoCommit);
			this.autoCommit = autoCommit;
		}
		return Boolean.TRUE.equals(autoCommit);
	}

	private List<String> write(List<JdbcDialect.InsertRow> rows) {
		String[] ids = new String[rows.size()];
		List<JdbcDialect.InsertRow> plain = new ArrayList<>(rows.size());
		Map<List<String>, Integer> firstWithKey = new HashMap<>();
		Set<String> queues = new LinkedHashSet<>();
		for (int i = 0; i < rows.size(); i++) {
			JdbcDialect.InsertRow row = rows.get(i);
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
				ids[i] = insertUnique(row);
			}
			if (row.state() != JobState.PENDING) {
				// a held job waits for its activation, which notifies then
				queues.add(row.queue());
			}
		}
		Collection<String> notify = (this.dialect.notifyChannel() != null) ? queues : List.of();
		if (!plain.isEmpty()) {
			this.dialect.insert(plain, notify);
		}
		else if (!notify.isEmpty()) {
			this.dialect.notifyInserted(notify);
		}
		insertedHere(queues);
		return List.of(ids);
	}

	private JdbcDialect.InsertRow row(NewJob job, Instant now) {
		if (job.type() == null || job.type().isBlank()) {
			throw new IllegalArgumentException("Job type must not be blank");
		}
		String queue = (job.queue() != null) ? job.queue() : NewJob.DEFAULT_QUEUE;
		checkLength("type", job.type());
		checkLength("queue", queue);
		checkLength("unique key", job.uniqueKey());
		if (job.runAt() != null && job.runAt().isAfter(Timestamps.MAX)) {
			throw new IllegalArgumentException(
					"Job runAt must not be after " + Timestamps.MAX + ", got " + job.runAt() + " (job type " + job.type() + ")");
		}
		if (job.expiresAt() != null && job.expiresAt().isAfter(Timestamps.MAX)) {
			throw new IllegalArgumentException("Job expiresAt must not be after " + Timestamps.MAX + ", got "
					+ job.expiresAt() + " (job type " + job.type() + ")");
		}
		RetryPolicy policy = job.retryPolicy();
		Instant runAt = (job.runAt() != null) ? job.runAt().truncatedTo(ChronoUnit.MICROS) : now;
		JobState state = job.pending() ? JobState.PENDING : runAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
		return new JdbcDialect.InsertRow(JobIds.newId(now), job.type(), queue,
				(job.argsJson() != null) ? job.argsJson() : "[]", (job.metaJson() != null) ? job.metaJson() : "{}",
				job.priority(), state, job.maxAttempts(), (policy != null) ? policy.toJson() : "{}",
				job.uniqueKey(), state != JobState.AVAILABLE ? runAt : now, now,
				(job.expiresAt() != null) ? job.expiresAt().truncatedTo(ChronoUnit.MICROS) : null);
	}

	private static void checkLength(String what, @Nullable String value) {
		if (value != null && value.length() > MAX_NAME_LENGTH) {
			throw new IllegalArgumentException("Job " + what + " must have at most " + MAX_NAME_LENGTH
					+ " characters, got " + value.length() + ": " + value.substring(0, 40) + "...");
		}
	}

	private String insertUnique(JdbcDialect.InsertRow row) {
		for (int i = 0; i < UNIQUE_INSERT_TRIES; i++) {
			String id = this.dialect.insertUnique(row);
			if (id != null) {
				return id;
			}
		}
		// the holder keeps vanishing, or (H2) a REPEATABLE READ snapshot cannot see it
		throw new ConcurrencyFailureException("Could not insert or find a live " + row.type()
				+ " job with unique key " + row.uniqueKey() + "; retry the transaction");
	}

	@Override
	public Optional<Job> find(String id) {
		return isId(id) ? this.dialect.findById(id) : Optional.empty();
	}

	@Override
	public boolean cancel(String id) {
		return isId(id) && this.dialect.cancel(id, now());
	}

	/** One {@code UPDATE} per chunk of {@value JdbcDialect#CHUNK} ids, with the conditions of a single cancel. */
	@Override
	public int cancel(Collection<String> ids) {
		List<String> valid = ids.stream().filter(JdbcJobStore::isId).distinct().toList();
		if (valid.isEmpty()) {
			return 0;
		}
		Instant now = now();
		int cancelled = 0;
		for (List<String> chunk : JdbcDialect.chunks(valid, JdbcDialect.CHUNK)) {
			cancelled += this.dialect.cancel(chunk, now);
		}
		return cancelled;
	}

	@Override
	public boolean activate(String id) {
		if (!isId(id)) {
			return false;
		}
		Optional<Job> job = find(id);
		if (job.isEmpty() || !this.dialect.activate(id, now())) {
			return false;
		}
		if (this.dialect.notifyChannel() != null) {
			this.dialect.notifyInserted(List.of(job.get().queue()));
		}
		insertedHere(List.of(job.get().queue()));
		return true;
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return this.dialect.countByQueueAndState();
	}

	@Override
	public List<Job> findDeadLettersBefore(DeadLetterFilter filter, Instant discardedAt, String id, int limit) {
		return isId(id) ? this.dialect.findDeadLettersBefore(filter, discardedAt, id, limit) : List.of();
	}

	@Override
	public List<Job> findDeadLetters(DeadLetterFilter filter, int offset, int limit) {
		return this.dialect.findDeadLetters(filter, offset, limit);
	}

	@Override
	public long countDeadLetters(DeadLetterFilter filter) {
		return this.dialect.countDeadLetters(filter);
	}

	@Override
	public DeadLetterStats deadLetterStats() {
		Map<String, Long> byQueue = this.dialect.deadLetterCountsByQueue();
		Map<String, Long> byErrorType = this.dialect.deadLetterCountsByErrorType();
		JdbcDialect.DiscardedRange range = this.dialect.deadLetterDiscardedRange();
		long total = byQueue.values().stream().mapToLong(Long::longValue).sum();
		return new DeadLetterStats(total, byQueue, byErrorType, range.oldest(), range.newest());
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A dead letter whose unique key is now held by another live job of its type stays where
	 * it is ({@code false}).
	 */
	@Override
	public boolean retryDeadLetter(String id) {
		Optional<Job> job = find(id).filter((candidate) -> candidate.state() == JobState.DISCARDED && candidate.deadLetter());
		if (job.isEmpty()) {
			return false;
		}
		String key = job.get().uniqueKey();
		if (key != null && this.dialect.findLiveIdByUniqueKey(job.get().type(), key) != null) {
			return false;
		}
		try {
			return this.dialect.reviveDeadLetters(List.of(id), now()) == 1;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

	@Override
	public int retryDeadLetters(DeadLetterFilter filter) {
		List<String> plain = new ArrayList<>();
		List<String> unique = new ArrayList<>();
		for (JdbcDialect.DeadLetterKey letter : this.dialect.findDeadLetterKeys(filter)) {
			((letter.uniqueKey() != null) ? unique : plain).add(letter.id());
		}
		int revived = 0;
		for (List<String> chunk : JdbcDialect.chunks(plain, JdbcDialect.CHUNK)) {
			revived += this.dialect.reviveDeadLetters(chunk, now());
		}
		// one at a time: two dead letters may share a key, and only one may become live
		for (String id : unique) {
			revived += retryDeadLetter(id) ? 1 : 0;
		}
		return revived;
	}

	@Override
	public boolean deleteDeadLetter(String id) {
		return isId(id) && this.dialect.deleteDeadLetter(id);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Pausing a paused queue keeps its {@code pausedAt}.
	 */
	@Override
	public QueueState pauseQueue(String queue) {
		return setPaused(queue, true);
	}

	@Override
	public QueueState resumeQueue(String queue) {
		return setPaused(queue, false);
	}

	private QueueState setPaused(String queue, boolean paused) {
		checkQueueName(queue);
		this.dialect.setPaused(queue, paused, now());
		return this.dialect.findQueue(queue).orElseGet(() -> QueueState.active(queue));
	}

	private static void checkQueueName(String queue) {
		if (queue == null || queue.isBlank()) {
			throw new IllegalArgumentException("Queue name must not be blank");
		}
		checkLength("queue", queue);
	}

	@Override
	public List<QueueState> queueStates() {
		return this.dialect.queues();
	}

	@Override
	public void checkAvailable() {
		this.dialect.checkTable();
	}

	private static boolean isId(String id) {
		if (id == null || id.length() != 36) {
			return false;
		}
		try {
			UUID.fromString(id);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	@Override
	public void publishHandlers(List<PublishedHandler> handlers) {
		if (!handlers.isEmpty()) {
			this.dialect.publishHandlers(handlers);
		}
	}

	@Override
	public Optional<PublishedHandler> findPublishedHandler(String type) {
		return Optional.ofNullable(this.dialect.findHandler(type));
	}

	@Override
	public List<PublishedHandler> publishedHandlers() {
		return this.dialect.handlers();
	}

	// ---- WorkerStore

	@Override
	public List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit) {
		if (limit <= 0 || visibilityByType.isEmpty()) {
			return List.of();
		}
		Instant now = now();
		Map<String, Duration> visibility = new LinkedHashMap<>(visibilityByType);
		return this.rateLimits.claim(queue, limit, now,
				(count) -> this.dialect.claim(nodeId, queue, visibility, count, now));
	}

	@Override
	public @Nullable Instant throttledUntil(String queue) {
		return this.rateLimits.throttledUntil(queue);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The queue's row is created when it has none. Claims on this node follow at once, on
	 * other nodes within a second.
	 */
	@Override
	public QueueState setRateLimit(String queue, @Nullable RateLimit limit) {
		checkQueueName(queue);
		this.dialect.setRateLimit(queue, limit);
		afterCommit(this.rateLimits::changed);
		return this.dialect.findQueue(queue).orElseGet(() -> QueueState.active(queue));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * In one transaction with the completions, the statistics of their queues' current
	 * minute are counted up (one upsert per queue).
	 */
	@Override
	public Set<String> complete(List<Job> jobs, boolean delete) {
		if (jobs.isEmpty()) {
			return Set.of();
		}
		Instant now = now();
		return this.dialect.workerTx.execute((status) -> {
			Set<String> written = this.dialect.complete(jobs, now, delete);
			this.admin.addStats(OutcomeCounts.completed(jobs, written, now));
			return written;
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * In one transaction with the failures, the statistics of their queues' minute are
	 * counted up (one upsert per queue and minute).
	 */
	@Override
	public Set<String> fail(List<AttemptFailure> failures) {
		if (failures.isEmpty()) {
			return Set.of();
		}
		return this.dialect.workerTx.execute((status) -> {
			Set<String> written = this.dialect.fail(failures, null);
			this.admin.addStats(OutcomeCounts.failed(failures, written));
			return written;
		});
	}

	@Override
	public Set<String> release(List<Job> jobs) {
		return jobs.isEmpty() ? Set.of() : this.dialect.release(jobs);
	}

	@Override
	public int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		return ids.isEmpty() ? 0 : this.dialect.heartbeat(nodeId, ids, lockedUntil);
	}

	@Override
	public List<Job> reservationsHeld(List<Job> jobs) {
		return jobs.isEmpty() ? List.of() : this.dialect.reservationsHeld(jobs);
	}

	@Override
	public Set<String> pausedQueues() {
		return this.dialect.pausedQueues();
	}

	@Override
	public Set<String> cancelled(List<Job> jobs) {
		return jobs.isEmpty() ? Set.of() : this.dialect.cancelled(jobs);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One transaction locks the expired rows, skipping those another rescuer holds, and each
	 * write is guarded by the attempt, the owner and the still-expired reservation.
	 */
	@Override
	public List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide) {
		Instant now = now();
		return this.dialect.workerTx.execute((status) -> {
			List<Job> expired = this.dialect.findExpired(now, limit);
			if (expired.isEmpty()) {
				return List.<AttemptFailure>of();
			}
			List<AttemptFailure> failures = expired.stream().map(decide).toList();
			Set<String> written = this.dialect.fail(failures, now);
			this.admin.addStats(OutcomeCounts.failed(failures, written));
			return failures.stream().filter((failure) -> written.contains(failure.job().id())).toList();
		});
	}

	@Override
	public List<Job> expire(int limit) {
		Instant now = now();
		return this.dialect.workerTx.execute((status) -> {
			List<Job> expired = this.dialect.expire(now, limit);
			if (!expired.isEmpty()) {
				this.admin.addStats(OutcomeCounts.expired(expired, now));
			}
			return expired;
		});
	}

	@Override
	public List<Instant> nextDueTimes(String queue, int limit) {
		return this.dialect.nextDueTimes(queue, now(), limit);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Completed jobs older than {@link RetentionSettings#completed()}, plain discarded and
	 * cancelled jobs older than {@link RetentionSettings#discarded()}, dead letters older
	 * than {@link RetentionSettings#deadLetterMaxAge()}, then the oldest dead letters beyond
	 * {@link RetentionSettings#deadLetterMaxCount()}. Works in chunks of
	 * {@value #PRUNE_CHUNK} rows, at most {@value #PRUNE_MAX_CHUNKS} per rule, and starts no
	 * chunk once {@code budget} has passed: the next run continues.
	 * <p>
	 * The count rule is idempotent, so nodes pruning at the same time never keep fewer than
	 * the maximum: it finds the n-th newest dead letter (by {@code discarded_at}, then id) and
	 * deletes only dead letters ordered strictly before that row.
	 */
	@Override
	public long prune(RetentionSettings retention, Duration budget) {
		long deadline = System.nanoTime() + Math.min(budget.toNanos(), Duration.ofDays(1).toNanos());
		Instant now = now();
		long deleted = deleteInChunks(
				() -> this.dialect.deleteCompletedBefore(Timestamps.minus(now, retention.completed()), PRUNE_CHUNK),
				deadline);
		deleted += deleteInChunks(
				() -> this.dialect.deleteDiscardedBefore(Timestamps.minus(now, retention.discarded()), PRUNE_CHUNK),
				deadline);
		deleted += deleteInChunks(() -> this.dialect
			.deleteDeadLettersBefore(Timestamps.minus(now, retention.deadLetterMaxAge()), PRUNE_CHUNK), deadline);
		if (retention.deadLetterMaxCount() <= 0) {
			return deleted + deleteInChunks(() -> this.dialect.deleteDeadLettersBefore(Timestamps.MAX, PRUNE_CHUNK),
					deadline);
		}
		deleted += pruneStatsAndNodes(now, retention);
		JdbcDialect.DeadLetterPosition oldestKept = this.dialect.newestDeadLetter(retention.deadLetterMaxCount());
		if (oldestKept != null) {
			deleted += deleteInChunks(() -> this.dialect.deleteDeadLettersBefore(oldestKept, PRUNE_CHUNK), deadline);
		}
		return deleted;
	}

	/**
	 * Per-minute statistics older than the retention of completed jobs, and at least
	 * {@link #STATS_RETENTION}; nodes not seen for as long (crashed, never stopped cleanly).
	 * Counted in the rows deleted.
	 */
	private long pruneStatsAndNodes(Instant now, RetentionSettings retention) {
		Duration keep = (retention.completed().compareTo(STATS_RETENTION) > 0) ? retention.completed() : STATS_RETENTION;
		try {
			Instant cutoff = Timestamps.minus(now, keep).truncatedTo(ChronoUnit.MINUTES);
			return this.admin.deleteStatsBefore(cutoff) + this.admin.deleteNodesBefore(cutoff);
		}
		catch (ConcurrencyFailureException ex) {
			return 0;
		}
	}

	/**
	 * Runs a chunked delete until it deletes less than a chunk, the budget is spent or
	 * {@value #PRUNE_MAX_CHUNKS} chunks. A lock conflict (another node pruning the same rows;
	 * InnoDB may report a deadlock) ends this rule for this run: the other node does the work.
	 */
	private static long deleteInChunks(IntSupplier chunk, long deadline) {
		long deleted = 0;
		try {
			for (int i = 0; i < PRUNE_MAX_CHUNKS && System.nanoTime() < deadline; i++) {
				int count = chunk.getAsInt();
				deleted += count;
				if (count < PRUNE_CHUNK) {
					break;
				}
			}
		}
		catch (ConcurrencyFailureException ex) {
			// pruned concurrently: the rest is the other node's or the next run's
		}
		return deleted;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Connection and resource failures, timeouts, deadlocks and serialization failures, as
	 * Spring translates them or as the driver reports them (SQLState classes 08 connection,
	 * 40 transaction rollback, 53 insufficient resources, 57 operator intervention). Anything
	 * else (data too long, constraint violation, bad SQL) fails again for the same rows.
	 */
	@Override
	public boolean isTransient(Throwable failure) {
		for (Throwable ex = failure; ex != null; ex = (ex.getCause() != ex) ? ex.getCause() : null) {
			if (ex instanceof TransientDataAccessException || ex instanceof RecoverableDataAccessException
					|| ex instanceof DataAccessResourceFailureException || ex instanceof CannotCreateTransactionException
					|| ex instanceof SQLTransientException || ex instanceof SQLRecoverableException
					|| ex instanceof SQLNonTransientConnectionException) {
				return true;
			}
			String state = (ex instanceof SQLException sql) ? sql.getSQLState() : null;
			if (state != null && TRANSIENT_SQL_STATES.contains(state.substring(0, Math.min(2, state.length())))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * This store's own inserts are told as their transaction commits, without a round trip
	 * through the database; on PostgreSQL so are those of every other process ({@code LISTEN} on
	 * a dedicated connection, reconnecting with backoff).
	 */
	@Override
	public Optional<AutoCloseable> listenForInserts(Consumer<@Nullable String> onInsert) {
		this.insertListeners.add(onInsert);
		String channel = this.dialect.notifyChannel();
		AutoCloseable others = (channel != null) ? PostgresInsertListener.start(this.dataSource, channel, onInsert) : null;
		return Optional.of(() -> {
			this.insertListeners.remove(onInsert);
			if (others != null) {
				others.close();
			}
		});
	}

	/** Tells the insert listeners of jobs that became claimable in {@code queues}, once that commits. */
	private void insertedHere(Collection<String> queues) {
		if (!this.insertListeners.isEmpty() && !queues.isEmpty()) {
			afterCommit(() -> tellInserted(queues));
		}
	}

	/**
	 * Runs {@code action} once the caller's transaction commits (never, if it rolls back), or
	 * now without one: other connections see this store's writes only then.
	 */
	private static void afterCommit(Runnable action) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					action.run();
				}
			});
		}
		else {
			action.run();
		}
	}

	private void tellInserted(Collection<String> queues) {
		for (Consumer<@Nullable String> listener : this.insertListeners) {
			for (String queue : queues) {
				try {
					listener.accept(queue);
				}
				catch (RuntimeException ex) {
					logger.warn("An insert listener failed; the job waits for the next poll", ex);
				}
			}
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Warns when a HikariCP pool is smaller than the worker's own connections, and when
	 * nothing vacuums the job table (PostgreSQL with autovacuum off for the server or the
	 * table).
	 */
	@Override
	public void workerStarting(int engineConnections, int handlerSlots) {
		// and the insert listener's own connection, where it listens to the database
		int listener = (this.dialect.notifyChannel() != null) ? 1 : 0;
		ConnectionPoolCheck.check(this.dataSource, engineConnections + listener, handlerSlots);
		vacuumWarning().ifPresent(logger::warn);
	}

	@Override
	public void nodeHeartbeat(NodeInfo node) {
		this.admin.upsertNode(node);
	}

	@Override
	public void nodeStopped(String nodeId) {
		this.admin.deleteNode(nodeId);
	}

	/** Why nothing vacuums the job table, if so; empty also when the settings cannot be read. */
	Optional<String> vacuumWarning() {
		try {
			return Optional.ofNullable(this.dialect.vacuumWarning());
		}
		catch (DataAccessException ex) {
			return Optional.empty();
		}
	}

}

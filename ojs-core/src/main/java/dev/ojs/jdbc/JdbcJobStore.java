package dev.ojs.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.job.PublishedHandler;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.job.Timestamps;
import dev.ojs.job.TypeLimit;
import dev.ojs.worker.NodeInfo;
import dev.ojs.worker.RetentionSettings;
import dev.ojs.worker.WorkerStore;

/**
 * The job store on the table {@code <prefix>jobs} (and the tables beside it) of the
 * application's database (PostgreSQL, MariaDB/MySQL or H2): the application's
 * {@link JobStore} and the worker's {@link WorkerStore}. It validates new jobs and calls its
 * {@link JdbcDialect}'s SQL, which runs in its own transactions; an insert joins the caller's
 * transaction (atomic outbox). Timestamps come from the application's {@link Clock}, never
 * the database's, so nodes sharing a database need synchronised clocks.
 */
public class JdbcJobStore implements JobStore, WorkerStore {

	private static final Log logger = LogFactory.getLog(JdbcJobStore.class);

	private final DataSource dataSource;

	private final JdbcStoreSettings settings;

	private final Clock clock;

	private final JdbcDialect dialect;

	/** Claims of limited queues keep to their limits. */
	private final QueueLimits limits;

	/** Claims of limited job types keep to their limits. */
	private final TypeLimits typeLimits;

	private final PruneRules pruneRules;

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
		this.typeLimits = new TypeLimits(this.dialect.limits(), settings.limitsTableName());
		this.limits = new QueueLimits(this.dialect.queues(), settings.queuesTableName(), this.dialect.inserts()::claimable,
				this.typeLimits::isLimited);
		this.dialect.outcomes().onActiveEnded(this.limits::endedInTransaction);
		this.pruneRules = new PruneRules(this.dialect);
	}

	/** The data source the store writes to. */
	public DataSource dataSource() {
		return this.dataSource;
	}

	public JdbcStoreSettings settings() {
		return this.settings;
	}

	public JdbcPlatform platform() {
		return this.dialect.platform();
	}

	/** The SQL of this store's platform, for the stores of the other tables in the same database. */
	JdbcDialect dialect() {
		return this.dialect;
	}

	/** The current instant at the precision stored: microseconds. */
	@Override
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
	 * key is longer than {@value InsertRow#MAX_NAME_LENGTH} characters, or its {@code runAt}
	 * or {@code expiresAt} is after {@link Timestamps#MAX}; nothing is written then
	 */
	@Override
	public List<String> insert(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		return this.dialect.inserts().insert(jobs, now());
	}

	@Override
	public Optional<Job> find(String id) {
		return SqlSupport.isUuid(id) ? this.dialect.jobs().findById(id) : Optional.empty();
	}

	@Override
	public List<Job> findAll(List<String> ids) {
		return this.dialect.jobs().findByIds(ids.stream().filter(SqlSupport::isUuid).distinct().toList());
	}

	@Override
	public Optional<String> result(String id) {
		return SqlSupport.isUuid(id) ? this.dialect.results().find(id) : Optional.empty();
	}

	@Override
	public boolean cancel(String id) {
		return SqlSupport.isUuid(id) && cancel(List.of(id)) == 1;
	}

	/**
	 * {@inheritDoc} One locking read and one {@code UPDATE} per chunk of {@value SqlSupport#CHUNK}
	 * ids; a job of a workflow advances it in the same transaction. A cancelled job that was
	 * active frees its slot, and each lets the next job of its sequence run: their queues' pollers
	 * are woken as by any other end ({@link QueueLimits}).
	 */
	@Override
	public int cancel(Collection<String> ids) {
		List<String> valid = ids.stream().filter(SqlSupport::isUuid).map((id) -> id.toLowerCase(java.util.Locale.ROOT))
			.distinct().toList();
		return valid.isEmpty() ? 0
				: this.limits.cancelled(this.dialect.workflows().cancelJobs(valid, now(), this.dialect.jobs())).size();
	}

	@Override
	public boolean activate(String id) {
		if (!SqlSupport.isUuid(id)) {
			return false;
		}
		Optional<Job> job = find(id);
		if (job.isEmpty() || !this.dialect.jobs().activate(id, now())) {
			return false;
		}
		this.dialect.inserts().activated(job.get().queue());
		return true;
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return this.dialect.jobs().countByQueueAndState();
	}

	@Override
	public List<Job> findDeadLettersBefore(DeadLetterFilter filter, Instant discardedAt, String id, int limit) {
		return SqlSupport.isUuid(id) ? this.dialect.deadLetters().findBefore(filter, discardedAt, id, limit) : List.of();
	}

	@Override
	public List<Job> findDeadLetters(DeadLetterFilter filter, int offset, int limit) {
		return this.dialect.deadLetters().find(filter, offset, limit);
	}

	@Override
	public long countDeadLetters(DeadLetterFilter filter) {
		return this.dialect.deadLetters().count(filter);
	}

	@Override
	public DeadLetterStats deadLetterStats() {
		return this.dialect.deadLetters().stats();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A dead letter whose unique key is now held by another live job of its type stays where
	 * it is ({@code false}).
	 */
	@Override
	public boolean retryDeadLetter(String id) {
		return find(id).map((job) -> DeadLetterRetries.retry(this.dialect, job, now())).orElse(false);
	}

	@Override
	public int retryDeadLetters(DeadLetterFilter filter) {
		return DeadLetterRetries.retryAll(this.dialect, filter, now(), this::retryDeadLetter);
	}

	@Override
	public boolean deleteDeadLetter(String id) {
		return SqlSupport.isUuid(id) && this.dialect.deletes().deleteDeadLetter(id);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Pausing a paused queue keeps its {@code pausedAt}.
	 */
	@Override
	public QueueState pauseQueue(String queue) {
		return changeQueue(queue, () -> this.dialect.queues().setPaused(queue, true, now()));
	}

	@Override
	public QueueState resumeQueue(String queue) {
		return changeQueue(queue, () -> this.dialect.queues().setPaused(queue, false, now()));
	}

	@Override
	public QueueState setRateLimit(String queue, @Nullable RateLimit limit) {
		return changeQueue(queue, () -> this.dialect.queues().setRateLimit(queue, limit));
	}

	@Override
	public QueueState setConcurrency(String queue, @Nullable Integer concurrency) {
		QueueLimits.checkConcurrency(concurrency);
		return changeQueue(queue, () -> this.dialect.queues().setConcurrency(queue, concurrency));
	}

	/**
	 * Checks the queue's name, writes its row (created when it has none) and reads its state. Claims
	 * on this node follow a new limit at once, on other nodes within a second ({@link QueueLimits}).
	 */
	private QueueState changeQueue(String queue, Runnable write) {
		QueueLimits.checkQueueName(queue);
		write.run();
		AfterCommit.run(this.limits::changed);
		return this.dialect.queues().find(queue).orElseGet(() -> QueueState.active(queue));
	}

	/** Claims on this node follow a new limit at once, on other nodes within a second ({@link TypeLimits}). */
	@Override
	public void setTypeLimit(String type, TypeLimit limit) {
		TypeLimits.check(type);
		this.dialect.limits().setTypeLimit(type, limit);
		AfterCommit.run(this.typeLimits::changed);
	}

	@Override
	public Map<String, TypeLimit> typeLimits() {
		return this.dialect.limits().typeLimits();
	}

	@Override
	public List<QueueState> queueStates() {
		return this.dialect.queues().all();
	}

	@Override
	public void checkAvailable() {
		this.dialect.jobs().checkTable();
	}

	@Override
	public void publishHandlers(List<PublishedHandler> handlers) {
		if (!handlers.isEmpty()) {
			this.dialect.handlers().publish(handlers);
		}
	}

	@Override
	public Optional<PublishedHandler> findPublishedHandler(String type) {
		return Optional.ofNullable(this.dialect.handlers().find(type));
	}

	@Override
	public List<PublishedHandler> publishedHandlers() {
		return this.dialect.handlers().all();
	}

	// ---- WorkerStore

	@Override
	public List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit) {
		return claim(nodeId, queue, visibilityByType, limit, false);
	}

	@Override
	public List<Job> claim(String nodeId, String queue, Map<String, Duration> visibilityByType, int limit,
			boolean jobVisibilityWins) {
		if (limit <= 0 || visibilityByType.isEmpty()) {
			return List.of();
		}
		Instant now = now();
		List<Job> claimed = this.limits.claim(nodeId, queue, limit, now, false,
				claims(nodeId, queue, visibilityByType, now));
		return Reservations.adjust(claimed, jobVisibilityWins, now, this.dialect.outcomes()::reserve);
	}

	/** Claims of up to a count of jobs at {@code now}, held to the types' limits but not to the queue's. */
	private IntFunction<List<Job>> claims(String nodeId, String queue, Map<String, Duration> visibilityByType,
			Instant now) {
		Map<String, Duration> visibility = new LinkedHashMap<>(visibilityByType);
		return (count) -> this.typeLimits.claim(visibility, count,
				(types, typeCount, keys) -> this.dialect.claims().claim(nodeId, queue, types, typeCount, now, keys));
	}

	@Override
	public @Nullable Instant throttledUntil(String queue) {
		return this.limits.throttledUntil(queue);
	}

	@Override
	public boolean atConcurrencyLimit(String queue) {
		return this.limits.atLimit(queue);
	}

	@Override
	public boolean handsOverSlots(String queue) {
		return this.limits.hasConcurrencyLimit(queue);
	}

	@Override
	public Set<String> complete(List<Job> jobs, boolean delete) {
		return complete(jobs, Map.of(), delete);
	}

	@Override
	public Set<String> complete(List<Job> jobs, Map<String, String> results, boolean delete) {
		return complete(jobs, results, delete, List.of()).written();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * In one transaction with the completions and the claims, the statistics of their queues'
	 * current minute are counted up (one upsert per queue) and the results go to
	 * {@code <prefix>job_results} (one batch more when there are any). The refills' claims
	 * follow ({@link QueueLimits#endedAndRefilled}); they wake no poller for what they took.
	 */
	@Override
	public Completed complete(List<Job> jobs, Map<String, String> results, boolean delete, List<Refill> refills) {
		if (jobs.isEmpty()) {
			return new Completed(Set.of(), List.of());
		}
		Instant now = now();
		List<List<Job>> claimed = new ArrayList<>(refills.size());
		Set<String> written = this.dialect.outcomes().complete(jobs, results, now, delete, (ended) -> {
			this.limits.endedAndRefilled(ended, refills, now,
					(refill) -> claims(refill.nodeId(), refill.queue(), refill.visibilityByType(), now))
				.forEach((jobsOfRefill) -> claimed.add(Reservations.adjust(jobsOfRefill, false, now,
						this.dialect.outcomes()::reserve)));
			return claimed.stream().flatMap(List::stream).toList();
		});
		return new Completed(this.limits.ended(jobs, QueueLimits.refilled(refills, claimed), written), claimed);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * In one transaction with the failures, the statistics of their queues' minute are
	 * counted up (one upsert per queue and minute).
	 */
	@Override
	public Set<String> fail(List<AttemptFailure> failures) {
		return failures.isEmpty() ? Set.of() : this.limits.failed(failures, this.dialect.outcomes().fail(failures));
	}

	@Override
	public Set<String> release(List<Job> jobs) {
		return jobs.isEmpty() ? Set.of() : this.limits.freed(jobs, this.dialect.outcomes().release(jobs));
	}

	@Override
	public int heartbeat(String nodeId, List<String> ids, Instant lockedUntil) {
		return ids.isEmpty() ? 0 : this.dialect.outcomes().heartbeat(nodeId, ids, lockedUntil);
	}

	@Override
	public List<Job> reservationsHeld(List<Job> jobs) {
		return jobs.isEmpty() ? List.of() : this.dialect.outcomes().reservationsHeld(jobs);
	}

	@Override
	public Set<String> pausedQueues() {
		return this.dialect.queues().paused();
	}

	@Override
	public Set<String> cancelled(List<Job> jobs) {
		return jobs.isEmpty() ? Set.of() : this.dialect.outcomes().cancelled(jobs);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One transaction locks the expired rows, skipping those another rescuer holds, and each
	 * write is guarded by the attempt, the owner and the still-expired reservation.
	 */
	@Override
	public List<AttemptFailure> reapExpired(int limit, Function<Job, AttemptFailure> decide) {
		List<AttemptFailure> reaped = this.dialect.outcomes().reapExpired(now(), limit, decide);
		return this.limits.failed(reaped, reaped);
	}

	@Override
	public List<Job> expire(int limit) {
		return this.limits.expired(this.dialect.outcomes().expire(now(), limit));
	}

	@Override
	public List<Instant> nextDueTimes(String queue, int limit) {
		return this.dialect.claims().nextDueTimes(queue, now(), limit);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * By the rules of {@link PruneRules}, in chunks within {@code budget}.
	 */
	@Override
	public long prune(RetentionSettings retention, Duration budget) {
		return this.pruneRules.prune(retention, budget, now());
	}

	/** Connection and resource failures, timeouts, deadlocks, serialization failures ({@link TransientFailures}). */
	@Override
	public boolean isTransient(Throwable failure) {
		return TransientFailures.isTransient(failure);
	}

	/**
	 * {@inheritDoc} This store's own inserts are told as their transaction commits, without a
	 * round trip; on PostgreSQL so are those of every other process ({@code LISTEN}, reconnecting).
	 */
	@Override
	public Optional<AutoCloseable> listenForInserts(Consumer<@Nullable String> onInsert) {
		return Optional.of(this.dialect.inserts().listen(onInsert));
	}

	/**
	 * {@inheritDoc} Warns when a HikariCP pool is smaller than the worker's own connections, and
	 * when nothing vacuums the job table (PostgreSQL with autovacuum off for the server or table).
	 */
	@Override
	public void workerStarting(int engineConnections, int handlerSlots) {
		// and the notification connection, where it listens to the database
		int listener = (this.dialect.inserts().notifyChannel() != null) ? 1 : 0;
		ConnectionPoolCheck.check(this.dataSource, engineConnections + listener, handlerSlots);
		vacuumWarning().ifPresent(logger::warn);
	}

	@Override
	public void nodeHeartbeat(NodeInfo node) {
		this.dialect.nodes().save(node);
	}

	@Override
	public void nodeStopped(String nodeId) {
		this.dialect.nodes().delete(nodeId);
	}

	/** Why nothing vacuums the job table, if so; empty also when the settings cannot be read. */
	Optional<String> vacuumWarning() {
		try {
			return Optional.ofNullable(this.dialect.jobs().vacuumWarning());
		}
		catch (DataAccessException ex) {
			return Optional.empty();
		}
	}

}

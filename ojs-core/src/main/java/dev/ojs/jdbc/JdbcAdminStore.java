package dev.ojs.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.FailingType;
import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobPage;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.PageCursor;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.worker.NodeInfo;

/**
 * The {@link AdminStore} on a {@link JdbcJobStore}'s tables: its job table, and the
 * {@code <prefix>nodes} and {@code <prefix>stats} tables beside it. Queue counts, queue
 * states and single dead-letter retries go through the job store.
 */
public class JdbcAdminStore implements AdminStore {

	/** Counts are exact up to this many jobs; beyond, the planner's estimate is shown. */
	public static final long EXACT_COUNT_LIMIT = 10_000;

	private static final int MAX_GROUPS = 500;

	/** A capped count that takes longer is cancelled for the planner's estimate (PostgreSQL). */
	static final int COUNT_TIMEOUT_MILLIS = 100;

	/**
	 * A capped count the planner costs higher is not tried (PostgreSQL): about a third of a
	 * sequential scan of 1,000,000 jobs, some 30 ms on a small machine.
	 */
	static final double COUNT_MAX_COST = 10_000;

	private final JdbcJobStore jobs;

	private final JdbcDialect dialect;

	private final AdminSql admin;

	public JdbcAdminStore(JdbcJobStore jobs) {
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.dialect = jobs.dialect();
		this.admin = this.dialect.admin();
	}

	@Override
	public Instant now() {
		return this.jobs.now();
	}

	@Override
	public JobPage jobs(JobQuery query) {
		int limit = Math.min(query.limit(), MAX_PAGE);
		List<Job> rows = this.admin.page(query, limit + 1);
		List<Job> items = (rows.size() > limit) ? rows.subList(0, limit) : rows;
		PageCursor next = (rows.size() > limit) ? new PageCursor(items.get(limit - 1).id()) : null;
		JobCount count = count(query, EXACT_COUNT_LIMIT);
		return new JobPage(items, count.value(), count.estimate(), next);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A {@code LIMIT}ed count reads at most {@code exactUpTo + 1} index entries; when more
	 * match, PostgreSQL, MariaDB and MySQL answer with their planner's row estimate (never
	 * below the counted floor), H2 counts all. On PostgreSQL a count the planner costs above
	 * {@value #COUNT_MAX_COST} is not tried, and one that takes longer than
	 * {@value #COUNT_TIMEOUT_MILLIS} ms is cancelled (a filter no index serves): the estimate
	 * answers.
	 */
	@Override
	public JobCount count(JobQuery query, long exactUpTo) {
		Long counted = this.admin.countUpTo(query, exactUpTo + 1, COUNT_TIMEOUT_MILLIS, COUNT_MAX_COST);
		if (counted != null && counted <= exactUpTo) {
			return new JobCount(counted, false);
		}
		Long estimate = this.admin.estimate(query);
		if (estimate == null) {
			return new JobCount(this.admin.countUpTo(query, Long.MAX_VALUE), false);
		}
		return new JobCount(Math.max(estimate, (counted != null) ? counted : 0), true);
	}

	@Override
	public List<String> ids(JobQuery query, int limit) {
		return this.admin.ids(query, limit);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Exact counts through {@link JdbcJobStore#countByQueueAndState()} when they take at most
	 * {@value #COUNT_TIMEOUT_MILLIS} ms (always on MariaDB, MySQL and H2); on a larger
	 * PostgreSQL table every count is the planner's estimate, flagged as such, for the
	 * queues that have a published handler, a stored state or outcomes in the last 24 hours.
	 */
	@Override
	public List<QueueSummary> queues() {
		Map<String, QueueState> states = new TreeMap<>();
		this.jobs.queueStates().forEach((state) -> states.put(state.name(), state));
		Map<String, Map<JobState, Long>> counts = this.admin.countByQueueAndState(COUNT_TIMEOUT_MILLIS);
		Map<String, Long> deadLetters;
		boolean estimated = counts == null;
		Map<String, Instant> oldest = this.admin.oldestReady(now());
		if (estimated) {
			Set<String> known = new TreeSet<>(this.dialect.handlers().queues());
			known.addAll(states.keySet());
			known.addAll(oldest.keySet());
			known.addAll(this.dialect.stats().queuesSince(now().minus(Duration.ofHours(24))));
			counts = new TreeMap<>();
			deadLetters = new TreeMap<>();
			estimateCounts(known, counts, deadLetters);
		}
		else {
			deadLetters = this.dialect.deadLetters().countsByQueue();
		}
		Set<String> names = new TreeSet<>(counts.keySet());
		names.addAll(states.keySet());
		List<QueueSummary> queues = new ArrayList<>(names.size());
		for (String name : names) {
			QueueState state = states.getOrDefault(name, QueueState.active(name));
			queues.add(new QueueSummary(name, counts.getOrDefault(name, new EnumMap<>(JobState.class)),
					deadLetters.getOrDefault(name, 0L), oldest.get(name), state.paused(), state.pausedAt(), estimated));
		}
		return queues;
	}

	/** Planner estimates per queue and state, and of dead letters per queue, in one round trip. */
	private void estimateCounts(Set<String> queues, Map<String, Map<JobState, Long>> counts,
			Map<String, Long> deadLetters) {
		List<JobQuery> queries = new ArrayList<>();
		for (String queue : queues) {
			for (JobState state : JobState.values()) {
				queries.add(JobQuery.ALL.withQueue(queue).withState(state, null));
			}
			queries.add(JobQuery.deadLetters().withQueue(queue));
		}
		Iterator<@Nullable Long> estimates = this.admin.estimates(queries).iterator();
		for (String queue : queues) {
			Map<JobState, Long> byState = new EnumMap<>(JobState.class);
			for (JobState state : JobState.values()) {
				byState.put(state, orZero(estimates.next()));
			}
			deadLetters.put(queue, orZero(estimates.next()));
			if (byState.values().stream().anyMatch((n) -> n > 0)) {
				counts.put(queue, byState);
			}
		}
	}

	private static long orZero(@Nullable Long estimate) {
		return (estimate != null) ? estimate : 0;
	}

	@Override
	public Optional<QueueSummary> queue(String name) {
		return queues().stream().filter((queue) -> queue.name().equals(name)).findFirst();
	}

	@Override
	public List<DeadLetterGroup> deadLetterGroups(JobQuery query) {
		return this.admin.deadLetterGroups(query, MAX_GROUPS);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Jobs without a unique key in chunks; those with one a time each (two may share a key,
	 * and only one may become live), dead letters through
	 * {@link JdbcJobStore#retryDeadLetter(String)}.
	 */
	@Override
	public int retry(Collection<String> ids) {
		int revived = 0;
		for (List<String> chunk : SqlSupport.chunks(List.copyOf(ids), SqlSupport.CHUNK)) {
			List<String> plain = new ArrayList<>();
			List<AdminSql.Revivable> unique = new ArrayList<>();
			for (AdminSql.Revivable job : this.admin.revivable(chunk)) {
				if (job.uniqueKey() != null) {
					unique.add(job);
				}
				else {
					plain.add(job.id());
				}
			}
			if (!plain.isEmpty()) {
				revived += this.admin.revive(plain, now());
			}
			for (AdminSql.Revivable job : unique) {
				revived += reviveUnique(job) ? 1 : 0;
			}
		}
		return revived;
	}

	private boolean reviveUnique(AdminSql.Revivable job) {
		if (this.jobs.retryDeadLetter(job.id())) {
			return true;
		}
		if (this.dialect.inserts().findLiveIdByUniqueKey(Objects.requireNonNull(job.type()),
				Objects.requireNonNull(job.uniqueKey())) != null) {
			return false;
		}
		try {
			return this.admin.revive(List.of(job.id()), now()) == 1;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

	@Override
	public int delete(Collection<String> ids) {
		int deleted = 0;
		for (List<String> chunk : SqlSupport.chunks(List.copyOf(ids), SqlSupport.CHUNK)) {
			deleted += this.dialect.deletes().deleteTerminal(chunk);
		}
		return deleted;
	}

	@Override
	public int purge(String queue, Set<JobState> states, @Nullable Instant olderThan, int limit) {
		checkTerminal(states);
		return this.dialect.deletes().purge(queue, states, olderThan, limit);
	}

	@Override
	public long countPurgeable(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		checkTerminal(states);
		return this.dialect.deletes().countPurgeable(queue, states, olderThan);
	}

	private static void checkTerminal(Set<JobState> states) {
		if (states.isEmpty() || !states.stream().allMatch(JobState::isTerminal)) {
			throw new IllegalArgumentException("Only terminal states (completed, discarded, cancelled) may be purged: "
					+ states);
		}
	}

	@Override
	public List<NodeInfo> nodes() {
		return this.dialect.nodes().all();
	}

	@Override
	public List<StatsBucket> stats(Instant since, Instant until, int periodMinutes, @Nullable String queue) {
		if (periodMinutes < 1) {
			throw new IllegalArgumentException("period must be at least one minute");
		}
		long periodSeconds = periodMinutes * 60L;
		Map<List<Object>, long[]> sums = new LinkedHashMap<>();
		for (StatsBucket minute : this.dialect.stats().minutes(since, until, queue)) {
			long epoch = minute.start().getEpochSecond();
			Instant start = Instant.ofEpochSecond(epoch - Math.floorMod(epoch, periodSeconds));
			long[] sum = sums.computeIfAbsent(List.of(start, (queue != null) ? queue : "*"), (key) -> new long[5]);
			sum[0] += minute.completed();
			sum[1] += minute.failed();
			sum[2] += minute.retried();
			sum[3] += minute.deadLettered();
			sum[4] += minute.discarded();
		}
		List<StatsBucket> buckets = new ArrayList<>(sums.size());
		sums.forEach((key, sum) -> buckets.add(
				new StatsBucket((Instant) key.get(0), (String) key.get(1), sum[0], sum[1], sum[2], sum[3], sum[4])));
		return buckets;
	}

	@Override
	public Map<String, StatsBucket> statsByQueue(Instant since, Instant until) {
		Map<String, StatsBucket> sums = new TreeMap<>();
		for (StatsBucket minute : this.dialect.stats().minutes(since, until, null)) {
			sums.merge(minute.queue(), new StatsBucket(since, minute.queue(), minute.completed(), minute.failed(),
					minute.retried(), minute.deadLettered(), minute.discarded()), JdbcAdminStore::sum);
		}
		return sums;
	}

	private static StatsBucket sum(StatsBucket a, StatsBucket b) {
		return new StatsBucket(a.start(), a.queue(), a.completed() + b.completed(), a.failed() + b.failed(),
				a.retried() + b.retried(), a.deadLettered() + b.deadLettered(), a.discarded() + b.discarded());
	}

	@Override
	public List<FailingType> topFailing(Instant since, int limit) {
		return this.admin.topFailing(since, limit);
	}

}

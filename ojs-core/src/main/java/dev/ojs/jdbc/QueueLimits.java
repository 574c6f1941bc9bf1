package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.worker.WorkerStore;

/**
 * Holds the claims of limited queues to their limits (ojs-queue-config.md §6.2, §8.3): such a
 * claim locks the queue's row, takes the queue's active jobs from it when it has a concurrency
 * limit (counting them at most once a second, see {@link #fresh}), takes no more jobs than the
 * limit leaves and than the rate limit's bucket holds, and moves the bucket and the bound on by
 * the jobs it took, all in one transaction. Claims of one limited queue thus take
 * their turns on every node, and each counts the jobs the claims before it took. Every claim goes
 * through it, in-process pollers' and HTTP workers' fetches alike, so the limits hold across nodes
 * and kinds of worker.
 * <p>
 * Which queues have a limit is read at most once a second, so a claim of a queue without one
 * costs nothing more; a queue newly limited is held to it on every node within a second, at once
 * on the node that set it (a claim already under way there is not held back by it; the jobs such
 * claims take count from the queue's next count). The claims of a queue already limited read its
 * limits from its locked row, so a changed limit holds at once.
 * <p>
 * When jobs of a queue with a concurrency limit end or are cancelled while active, the pollers
 * of that queue are woken (as by an insert), so a claim that found no free slot is tried again at once rather than at the next
 * poll; so are the pollers of a job's queue when it ends a job of a sequence, whose next job
 * the claims held back until then.
 */
final class QueueLimits {

	private static final Log logger = LogFactory.getLog(QueueLimits.class);

	/** How long a count of a queue's active jobs, kept up to date by their claims and ends, stands. */
	static final long RECOUNT_MILLIS = 1000;

	private final QueueSql queues;

	/** Which queues have a limit. */
	private final LimitsCache<Limited> limited;

	/** Whether a job type has a concurrency limit (as last read), whose jobs' end wakes their queue's pollers. */
	private final Predicate<String> typeLimited;

	/** The queues whose last claim through this store came back short for want of a free slot. */
	private final Set<String> atLimit = ConcurrentHashMap.newKeySet();

	/** Who found a queue full, and since when: they take the next free slots in turn. */
	private final Waiters waiters = new Waiters();

	/** When each throttled queue's next token comes back. */
	private final Map<String, Instant> throttledUntil = new ConcurrentHashMap<>();

	/** Wakes the pollers of queues whose jobs may be claimable, this process's and others' where it can. */
	private final Consumer<Collection<String>> claimable;

	QueueLimits(QueueSql queues, String table, Consumer<Collection<String>> claimable, Predicate<String> typeLimited) {
		this.queues = queues;
		this.limited = new LimitsCache<>(this::read, new Limited(Set.of(), Set.of()), table);
		this.claimable = claimable;
		this.typeLimited = typeLimited;
	}

	/** The names of the queues with a limit, and of those with a concurrency limit. */
	private record Limited(Set<String> any, Set<String> concurrency) {
	}

	/**
	 * Claims through {@code claim} (given how many jobs to take at most): at once for a queue
	 * without a limit, otherwise no more than its concurrency limit leaves and its bucket holds at
	 * {@code now}; a {@code refill} in the caller's transaction (of the outcomes that freed its
	 * slots), any other in one of its own.
	 */
	List<Job> claim(String claimer, String queue, int limit, Instant now, boolean refill,
			IntFunction<List<Job>> claim) {
		if (!this.limited.get().any().contains(queue)) {
			this.atLimit.remove(queue);
			return claim.apply(limit);
		}
		return this.queues.inLimitTransaction((status) -> {
			QueueSql.Limits limits = this.queues.lockLimits(queue);
			if (limits == null) {
				// the limits were removed since they were read
				this.throttledUntil.remove(queue);
				return claim.apply(limit);
			}
			long nowMillis = now.toEpochMilli();
			boolean count = limits.concurrency() != null && !fresh(limits, nowMillis);
			Integer active = (limits.concurrency() == null) ? null
					: count ? this.queues.countActive(queue) : limits.activeMax();
			int free = (active != null) ? limits.concurrency() - active : limit;
			if (active != null && free > 0 && this.waiters.yields(queue, claimer, nowMillis)) {
				// a claimer that found the queue full waits longer: the next slot is its
				free--;
			}
			int wanted = Math.min(limit, Math.max(0, free));
			Drawn drawn;
			if (limits.rateLimit() == null) {
				this.throttledUntil.remove(queue);
				drawn = new Drawn((wanted > 0) ? claim.apply(wanted) : List.of(), limits.tat());
			}
			else {
				drawn = drawFromBucket(queue, limits.rateLimit(), limits.tat(), wanted, now, claim);
			}
			if (active != null && wanted < limit && drawn.jobs().size() == wanted) {
				this.atLimit.add(queue);
			}
			else {
				this.atLimit.remove(queue);
			}
			if (wanted > 0) {
				// offered a slot, whether or not it had jobs to take: it does not wait
				this.waiters.served(queue, claimer);
			}
			else if (active != null) {
				this.waiters.waited(queue, claimer, nowMillis);
			}
			Integer activeMax = (active != null) ? active + drawn.jobs().size() : null;
			if (count || !drawn.jobs().isEmpty()) {
				// boxed on purpose: a queue with a rate limit alone keeps null
				this.queues.claimed(queue, drawn.tat(), activeMax, count ? Long.valueOf(nowMillis) : limits.countedAt());
			}
			return drawn.jobs();
		}, refill);
	}

	/**
	 * Frees the slots of {@code ended}, active jobs completed in this transaction, and claims
	 * the jobs of the {@code refills} that follow them in it (through {@code claims}, by refill),
	 * as many as each queue's limits allow. A refill of a queue with a concurrency limit alone
	 * that asks for no more slots than its completions freed there <em>swaps</em> them: its claim
	 * leaves the queue's active jobs as they were, so it neither reads the count under the row's
	 * lock nor writes it, and the claims of the queue on other nodes need not wait for this
	 * commit. Only what the swaps did not take back is written off the row ({@link #endedInTransaction}).
	 * A swap is not made when the limit was lowered below the queue's active jobs, when the queue
	 * has no exact count or a rate limit too, when it may claim job types with limits of their
	 * own, or when another kind of worker waits for a slot ({@link Waiters}): such a refill takes
	 * its turn on the row as any claim.
	 * @return the jobs each refill claimed, in the order of {@code refills}
	 */
	List<List<Job>> endedAndRefilled(List<Job> ended, List<WorkerStore.Refill> refills, Instant now,
			Function<WorkerStore.Refill, IntFunction<List<Job>>> claims) {
		SortedMap<String, Integer> freed = limitedQueues(ended.stream());
		List<List<Job>> claimed = new ArrayList<>(Collections.nCopies(refills.size(), List.of()));
		List<Integer> turns = new ArrayList<>();
		for (int i = 0; i < refills.size(); i++) {
			WorkerStore.Refill refill = refills.get(i);
			if (refill.limit() <= 0 || refill.visibilityByType().isEmpty()) {
				continue;
			}
			if (refill.limit() <= freed.getOrDefault(refill.queue(), 0) && swaps(refill, now.toEpochMilli())) {
				List<Job> jobs = claims.apply(refill).apply(refill.limit());
				claimed.set(i, jobs);
				freed.merge(refill.queue(), -jobs.size(), Integer::sum);
				this.atLimit.remove(refill.queue());
				this.waiters.served(refill.queue(), refill.nodeId());
			}
			else {
				turns.add(i);
			}
		}
		// the rows in name order, before the claims that take their turns on them (as any claim)
		freed.values().removeIf((count) -> count == 0);
		if (!freed.isEmpty()) {
			this.queues.ended(freed);
		}
		for (int i : turns) {
			WorkerStore.Refill refill = refills.get(i);
			claimed.set(i, claim(refill.nodeId(), refill.queue(), refill.limit(), now, true, claims.apply(refill)));
		}
		return claimed;
	}

	/** Whether a refill may swap the slots freed in its queue for as many jobs ({@link #endedAndRefilled}). */
	private boolean swaps(WorkerStore.Refill refill, long nowMillis) {
		if (!this.limited.get().concurrency().contains(refill.queue())
				|| this.waiters.yields(refill.queue(), refill.nodeId(), nowMillis)
				// a claim of limited types locks their rows after the queue's, as every claim does
				|| refill.visibilityByType().keySet().stream().anyMatch(this.typeLimited)) {
			return false;
		}
		QueueSql.Limits limits = this.queues.readLimits(refill.queue());
		return limits != null && limits.rateLimit() == null && limits.concurrency() != null
				&& limits.activeMax() != null && limits.activeMax() <= limits.concurrency();
	}

	/**
	 * Whether a queue's {@code active_max} is its active jobs, uncounted: it is the last count,
	 * plus the jobs claimed since, less those whose end wrote it ({@link #endedInTransaction}), so
	 * it is exact but for jobs that ended otherwise (those set it to {@code null}: {@link #recount})
	 * and jobs claimed by a node that did not yet know of the limit (at most {@link #RECOUNT_MILLIS}
	 * later, the next claim counts again). A count reads every entry the active jobs left in the
	 * index since its last vacuum, so a claim that takes its turn on a full queue costs one row.
	 */
	private static boolean fresh(QueueSql.Limits limits, long nowMillis) {
		Long countedAt = limits.countedAt();
		return limits.activeMax() != null && countedAt != null && nowMillis >= countedAt
				&& nowMillis - countedAt < RECOUNT_MILLIS;
	}

	/** The jobs a claim took, and the bucket's theoretical arrival time after it. */
	private record Drawn(List<Job> jobs, @Nullable Long tat) {
	}

	/** A claim of up to {@code wanted} jobs of a rate-limited queue, drawn from its bucket. */
	private Drawn drawFromBucket(String queue, RateLimit rateLimit, @Nullable Long tat, int wanted, Instant now,
			IntFunction<List<Job>> claim) {
		long nanos = RateLimit.epochNanos(now);
		int available = rateLimit.available(tat, nanos);
		int take = Math.min(wanted, available);
		List<Job> claimed = (take > 0) ? claim.apply(take) : List.of();
		// boxed on purpose: a full bucket that gave nothing stays null
		Long newTat = claimed.isEmpty() ? tat : Long.valueOf(rateLimit.taken(tat, nanos, claimed.size()));
		if (available < wanted && claimed.size() == available) {
			// short for want of tokens, not of due jobs or free slots
			this.throttledUntil.put(queue, Instant.ofEpochSecond(0, rateLimit.nextTokenAt(newTat, nanos)));
		}
		else {
			this.throttledUntil.remove(queue);
		}
		return new Drawn(claimed, newTat);
	}

	static void checkQueueName(String queue) {
		if (queue == null || queue.isBlank()) {
			throw new IllegalArgumentException("Queue name must not be blank");
		}
		InsertRow.checkLength("queue", queue);
	}

	static void checkConcurrency(@Nullable Integer concurrency) {
		if (concurrency != null && concurrency < 1) {
			throw new IllegalArgumentException("A queue's concurrency must be at least 1: " + concurrency);
		}
	}

	/** Whether the queue has a concurrency limit (as last read, at most a second ago). */
	boolean hasConcurrencyLimit(String queue) {
		return this.limited.get().concurrency().contains(queue);
	}

	/** Whether the last claim of the queue through this store came back short for want of a free slot. */
	boolean atLimit(String queue) {
		return this.atLimit.contains(queue);
	}

	/** When the queue's next token comes back, if its last claim ran its bucket dry before its wish. */
	@Nullable Instant throttledUntil(String queue) {
		return this.throttledUntil.get(queue);
	}

	/**
	 * These jobs ended in a terminal state (their outcome written): frees their slots, as
	 * {@link #freed}, and lets the next job of each one's sequence run, whose pollers are woken
	 * likewise.
	 * @return {@code written}
	 */
	<T> T ended(List<Job> jobs, T written) {
		return ended(jobs, Map.of(), written);
	}

	/**
	 * As {@link #ended(List, Object)}, where {@code refilled} jobs of some queues were claimed
	 * in the same transaction (by queue): a queue that got back as many as ended there wakes
	 * no poller for its slots.
	 */
	<T> T ended(List<Job> jobs, Map<String, Integer> refilled, T written) {
		if (refilled.isEmpty()) {
			return wake(jobs, jobs, written);
		}
		Map<String, Integer> endedByQueue = new HashMap<>();
		jobs.forEach((job) -> endedByQueue.merge(job.queue(), 1, Integer::sum));
		List<Job> freed = jobs.stream()
			.filter((job) -> refilled.getOrDefault(job.queue(), 0) < endedByQueue.get(job.queue()))
			.toList();
		return wake(freed, jobs, written);
	}

	/** How many jobs the refills claimed, by queue. */
	static Map<String, Integer> refilled(List<WorkerStore.Refill> refills, List<List<Job>> claimed) {
		Map<String, Integer> refilled = new HashMap<>();
		for (int i = 0; i < refills.size(); i++) {
			refilled.merge(refills.get(i).queue(), claimed.get(i).size(), Integer::sum);
		}
		return refilled;
	}

	/**
	 * These attempts failed (their outcome written): each frees its slot, and those that ended
	 * in a terminal state let the next job of their sequence run; a retry holds its sequence.
	 * @return {@code written}
	 */
	<T> T failed(List<AttemptFailure> failures, T written) {
		List<Job> jobs = new ArrayList<>(failures.size());
		List<Job> ended = new ArrayList<>();
		for (AttemptFailure failure : failures) {
			jobs.add(failure.job());
			if (failure.state().isTerminal()) {
				ended.add(failure.job());
			}
		}
		return wake(jobs, ended, written);
	}

	/**
	 * These jobs expired before they started (discarded): they held no slot, but the next job
	 * of each one's sequence may run now.
	 * @return {@code jobs}
	 */
	List<Job> expired(List<Job> jobs) {
		return wake(List.of(), jobs, jobs);
	}

	/**
	 * These active jobs ended in this transaction (completed, failed, reaped): takes them off
	 * their limited queues' {@code active_max}, so the next claims need not count.
	 */
	void endedInTransaction(Stream<Job> jobs) {
		SortedMap<String, Integer> ended = limitedQueues(jobs);
		if (!ended.isEmpty()) {
			this.queues.ended(ended);
		}
	}

	/**
	 * These jobs were cancelled, as read before the cancel (written): those that were active
	 * free their slots (their queues count again, {@link QueueSql#recount}), and each lets the
	 * next job of its sequence run, as {@link #ended}.
	 * @return {@code jobs}
	 */
	List<Job> cancelled(List<Job> jobs) {
		List<Job> active = jobs.stream().filter((job) -> job.state() == JobState.ACTIVE).toList();
		recount(active);
		return wake(active, jobs, jobs);
	}

	/**
	 * These jobs handed back their slots but stay live (released): their limited queues count
	 * again, and their pollers are woken.
	 * @return {@code written}
	 */
	<T> T freed(List<Job> jobs, T written) {
		recount(jobs);
		return wake(jobs, List.of(), written);
	}

	private void recount(List<Job> jobs) {
		Set<String> queues = limitedQueues(jobs.stream()).keySet();
		try {
			if (!queues.isEmpty()) {
				this.queues.recount(queues);
			}
		}
		catch (DataAccessException ex) {
			// the jobs ended: their slots stay taken until the queues' next count, within a second
			logger.debug("OJS could not have " + queues + " count their active jobs again", ex);
		}
	}

	/** How many of {@code jobs} each queue with a concurrency limit has, by name; none read without one. */
	private SortedMap<String, Integer> limitedQueues(Stream<Job> jobs) {
		Set<String> limited = this.limited.get().concurrency();
		SortedMap<String, Integer> counts = new TreeMap<>();
		if (!limited.isEmpty()) {
			jobs.filter((job) -> limited.contains(job.queue())).forEach((job) -> counts.merge(job.queue(), 1, Integer::sum));
		}
		return counts;
	}

	/**
	 * Wakes the pollers of the queues where a claim may now take more: of the jobs of
	 * {@code freed} whose queue has a concurrency limit or whose type has one (the last claim
	 * may have found no free slot), and of the jobs of {@code ended} with a sequence key (the
	 * next job of the key was held back); this process's pollers at once, on PostgreSQL every
	 * process's through NOTIFY, so neither waits for its next poll. Other jobs were not held
	 * back and wake nobody; which queues and types have a limit, and a job's sequence key, are
	 * read from memory (the jobs as the worker holds them, or as the cancel read them), so they
	 * cost no query.
	 */
	private <T> T wake(List<Job> freed, List<Job> ended, T written) {
		Set<String> limited = this.limited.get().concurrency();
		Set<String> queues = new HashSet<>();
		for (Job job : freed) {
			if (limited.contains(job.queue()) || this.typeLimited.test(job.type())) {
				queues.add(job.queue());
			}
		}
		for (Job job : ended) {
			if (job.sequenceKey() != null) {
				queues.add(job.queue());
			}
		}
		if (!queues.isEmpty()) {
			try {
				this.claimable.accept(queues);
			}
			catch (DataAccessException ex) {
				// the outcomes are written; the pollers look at their next poll
				logger.debug("OJS could not tell the pollers of " + queues + " that jobs may be claimable", ex);
			}
		}
		return written;
	}

	/** A limit changed on this node: read them again before the next claim. */
	void changed() {
		this.limited.changed();
	}

	private Limited read() {
		Set<String> limited = new HashSet<>();
		Set<String> concurrencyLimited = new HashSet<>();
		for (QueueState state : this.queues.all()) {
			if (state.rateLimit() != null || state.concurrency() != null) {
				limited.add(state.name());
			}
			if (state.concurrency() != null) {
				concurrencyLimited.add(state.name());
			}
		}
		this.throttledUntil.keySet().retainAll(limited);
		return new Limited(limited, concurrencyLimited);
	}

}

package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.Job;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * Holds the claims of limited queues to their limits (ojs-queue-config.md §6.2, §8.3): such a
 * claim locks the queue's row, bounds the queue's active jobs when it has a concurrency limit
 * (counting them when the limit could bind, see {@link #active}), takes no more jobs than the
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
 * When jobs of a queue with a concurrency limit end, the pollers of that queue are woken (as by
 * an insert), so a claim that found no free slot is tried again at once rather than at the next
 * poll; so are the pollers of a job's queue when it ends a job of a sequence, whose next job
 * the claims held back until then.
 */
final class QueueLimits {

	private static final Log logger = LogFactory.getLog(QueueLimits.class);

	private final QueueSql queues;

	/** Which queues have a limit. */
	private final LimitsCache<Limited> limited;

	/** Whether a job type has a concurrency limit (as last read), whose jobs' end wakes their queue's pollers. */
	private final Predicate<String> typeLimited;

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
	 * {@code now}.
	 */
	List<Job> claim(String queue, int limit, Instant now, IntFunction<List<Job>> claim) {
		if (!this.limited.get().any().contains(queue)) {
			return claim.apply(limit);
		}
		return this.queues.inLimitTransaction((status) -> {
			QueueSql.Limits limits = this.queues.lockLimits(queue);
			if (limits == null) {
				// the limits were removed since they were read
				this.throttledUntil.remove(queue);
				return claim.apply(limit);
			}
			Integer active = (limits.concurrency() != null) ? active(queue, limits, limit) : null;
			int wanted = (active != null) ? Math.min(limit, Math.max(0, limits.concurrency() - active)) : limit;
			Drawn drawn;
			if (limits.rateLimit() == null) {
				this.throttledUntil.remove(queue);
				drawn = new Drawn((wanted > 0) ? claim.apply(wanted) : List.of(), limits.tat());
			}
			else {
				drawn = drawFromBucket(queue, limits.rateLimit(), limits.tat(), wanted, now, claim);
			}
			Integer activeMax = (active != null) ? active + drawn.jobs().size() : null;
			if (!drawn.jobs().isEmpty() || !Objects.equals(activeMax, limits.activeMax())) {
				this.queues.claimed(queue, drawn.tat(), activeMax);
			}
			return drawn.jobs();
		});
	}

	/**
	 * The most jobs of a queue with a concurrency limit that can be active: the queue's row keeps
	 * the last count plus the jobs claimed since (jobs that ended since are not taken off), and
	 * the active jobs are counted again only when that bound and this claim's {@code limit} could
	 * reach the concurrency limit. A limit that never binds is thus counted rarely; a count reads
	 * every entry the active jobs left in the index since its last vacuum.
	 */
	private int active(String queue, QueueSql.Limits limits, int limit) {
		Integer bound = limits.activeMax();
		return (bound != null && bound + limit <= limits.concurrency()) ? bound : this.queues.countActive(queue);
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
		Long newTat = claimed.isEmpty() ? tat : rateLimit.taken(tat, nanos, claimed.size());
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
		return wake(jobs, jobs, written);
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
	 * These jobs handed back their slots but stay live (released): wakes the pollers of their
	 * limited queues.
	 * @return {@code written}
	 */
	<T> T freed(List<Job> jobs, T written) {
		return wake(jobs, List.of(), written);
	}

	/**
	 * Wakes the pollers of the queues where a claim may now take more: of the jobs of
	 * {@code freed} whose queue has a concurrency limit or whose type has one (the last claim
	 * may have found no free slot), and of the jobs of {@code ended} with a sequence key (the
	 * next job of the key was held back); this process's pollers at once, on PostgreSQL every
	 * process's through NOTIFY, so neither waits for its next poll. Other jobs were not held
	 * back and wake nobody; which queues and types have a limit, and a job's sequence key, are
	 * read from memory, so they cost no query.
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

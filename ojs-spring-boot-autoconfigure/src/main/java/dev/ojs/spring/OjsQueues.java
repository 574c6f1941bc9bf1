package dev.ojs.spring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * Pauses, resumes, rate-limits, limits the concurrency of, lists and counts queues (ojs-queue-config.md §5.1, §6.2,
 * ojs-admin-api.md §6): the one service of queues behind the Java API, the HTTP binding, the
 * Admin API and the actuator. The state is stored in the database, so it holds on every node
 * and across restarts: this node's worker follows at once, every other node's within one
 * {@code ojs.worker.poll-interval}. Jobs already running (or claimed as the pause took
 * effect) finish; enqueues into a paused queue succeed and the jobs wait.
 * <p>
 * Every queue name given is checked by {@link OjsNames}: a name breaking the rule throws
 * {@link OjsValidationException} (field {@code queue}). The statistics and summaries need an
 * {@link AdminStore}; without one they throw {@link UnsupportedOperationException}.
 */
public class OjsQueues {

	private static final Log logger = LogFactory.getLog(OjsQueues.class);

	private final JobStore store;

	private final @Nullable AdminStore admin;

	private final Runnable changed;

	/**
	 * @param store where queue states and jobs are stored
	 */
	public OjsQueues(JobStore store) {
		this(store, () -> {
		});
	}

	/**
	 * @param store where queue states and jobs are stored
	 * @param changed run after each pause or resume, such as
	 * {@link dev.ojs.worker.Worker#refreshPausedQueues()} for this node's worker
	 */
	public OjsQueues(JobStore store, Runnable changed) {
		this(store, null, changed);
	}

	/**
	 * @param store where queue states and jobs are stored
	 * @param admin the queue summaries and per-minute statistics, or {@code null} when the
	 * store keeps none
	 * @param changed run after each pause or resume, such as
	 * {@link dev.ojs.worker.Worker#refreshPausedQueues()} for this node's worker
	 */
	public OjsQueues(JobStore store, @Nullable AdminStore admin, Runnable changed) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.admin = admin;
		this.changed = Objects.requireNonNull(changed, "changed must not be null");
	}

	/**
	 * Pauses a queue, also one that has never held a job. Pausing a paused queue keeps
	 * its {@link QueueState#pausedAt()}.
	 * @param queue the queue name
	 * @return its state now
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 * @throws UnsupportedOperationException when the job store cannot pause queues
	 */
	public QueueState pause(String queue) {
		QueueState state = this.store.pauseQueue(OjsNames.checkQueue(queue, "queue"));
		logger.info("OJS queue '" + queue + "' paused");
		this.changed.run();
		return state;
	}

	/**
	 * Resumes a queue: workers claim its jobs again. Resuming a queue that is not paused
	 * changes nothing.
	 * @param queue the queue name
	 * @return its state now
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 * @throws UnsupportedOperationException when the job store cannot pause queues
	 */
	public QueueState resume(String queue) {
		QueueState state = this.store.resumeQueue(OjsNames.checkQueue(queue, "queue"));
		logger.info("OJS queue '" + queue + "' resumed");
		this.changed.run();
		return state;
	}

	/**
	 * Sets a queue's rate limit (ojs-queue-config.md §6.2, §8.3), also of a queue that has
	 * never held a job: at most {@code limit.limit()} of its jobs start per
	 * {@code limit.period()}, on all nodes and workers (in process and over HTTP) together.
	 * This node follows at once, other nodes within a second.
	 * @param queue the queue name
	 * @param limit the limit, or {@code null} to remove it
	 * @return its state now
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 * @throws UnsupportedOperationException when the job store cannot limit queues
	 */
	public QueueState setRateLimit(String queue, @Nullable RateLimit limit) {
		QueueState state = this.store.setRateLimit(OjsNames.checkQueue(queue, "queue"), limit);
		logger.info("OJS queue '" + queue + "' rate limit " + ((limit != null)
				? "set to " + limit.limit() + " per " + limit.period() : "removed"));
		return state;
	}

	/**
	 * Sets a queue's rate limit as a job's own {@code rate_limit} option does over HTTP (spec
	 * README decision 22): every such enqueue sets it again, so it is logged at debug level
	 * only. Joins the caller's transaction.
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 */
	public QueueState setRateLimitOfJob(String queue, RateLimit limit) {
		QueueState state = this.store.setRateLimit(OjsNames.checkQueue(queue, "queue"), limit);
		if (logger.isDebugEnabled()) {
			logger.debug("OJS queue '" + queue + "' rate limit set to " + limit.limit() + " per " + limit.period()
					+ " by a job");
		}
		return state;
	}

	/**
	 * Sets a queue's concurrency limit (ojs-queue-config.md §6.2), also of a queue that has
	 * never held a job: at most {@code concurrency} of its jobs are active at once, on all nodes
	 * and workers (in process and over HTTP) together; jobs claimed beyond a lowered limit run to
	 * their end. This node follows at once, other nodes within a second (at their next claim when
	 * the queue had a limit already). A node that dies holding jobs frees their slots when their
	 * reservations expire and the rescuer ends their attempts.
	 * @param queue the queue name
	 * @param concurrency the limit, at least 1, or {@code null} to remove it
	 * @return its state now
	 * @throws OjsValidationException when the name breaks {@link OjsNames} or the limit is below 1
	 * (field {@code concurrency})
	 * @throws UnsupportedOperationException when the job store cannot limit queues
	 */
	public QueueState setConcurrency(String queue, @Nullable Integer concurrency) {
		OjsNames.checkQueue(queue, "queue");
		if (concurrency != null && concurrency < 1) {
			throw new OjsValidationException("concurrency",
					"The 'concurrency' must be an integer of at least 1, or null to remove the limit.");
		}
		QueueState state = this.store.setConcurrency(queue, concurrency);
		logger.info("OJS queue '" + queue + "' concurrency " + ((concurrency != null)
				? "limited to " + concurrency + " on all nodes" : "limit removed"));
		return state;
	}

	/** The rate limits of the queues that have one, by queue name. */
	public Map<String, RateLimit> rateLimits() {
		return byQueue(QueueState::rateLimit);
	}

	/** The concurrency limits of the queues that have one, by queue name. */
	public Map<String, Integer> concurrencies() {
		return byQueue(QueueState::concurrency);
	}

	/** The queue's concurrency limit, or {@code null} when it has none. */
	public @Nullable Integer concurrency(String queue) {
		return concurrencies().get(queue);
	}

	private <T> Map<String, T> byQueue(Function<QueueState, @Nullable T> setting) {
		Map<String, T> settings = new TreeMap<>();
		for (QueueState state : this.store.queueStates()) {
			T value = setting.apply(state);
			if (value != null) {
				settings.put(state.name(), value);
			}
		}
		return settings;
	}

	/** The queue's rate limit, or {@code null} when it has none. */
	public @Nullable RateLimit rateLimit(String queue) {
		return rateLimits().get(queue);
	}

	/** Whether the queue is paused. */
	public boolean isPaused(String queue) {
		return this.store.queueStates().stream().anyMatch((state) -> state.name().equals(queue) && state.paused());
	}

	/**
	 * Every known queue, in name order: those holding jobs and those ever paused, resumed or
	 * rate-limited (a paused queue without jobs too), with their counts and dead letters.
	 * Counting reads the whole job table.
	 */
	public List<QueueInfo> queues() {
		Map<String, Map<JobState, Long>> counts = this.store.countByQueueAndState();
		Map<String, Long> deadLetters = this.store.deadLetterStats().byQueue();
		Map<String, QueueState> states = new TreeMap<>();
		counts.keySet().forEach((queue) -> states.put(queue, QueueState.active(queue)));
		this.store.queueStates().forEach((state) -> states.put(state.name(), state));
		List<QueueInfo> queues = new ArrayList<>(states.size());
		states.forEach((queue, state) -> queues.add(
				info(state, counts.getOrDefault(queue, Map.of()), deadLetters.getOrDefault(queue, 0L))));
		return queues;
	}

	/**
	 * A queue with its exact counts, also one never seen (active, no jobs). Counting reads
	 * the whole job table.
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 */
	public QueueInfo queue(String name) {
		OjsNames.checkQueue(name, "queue");
		Map<JobState, Long> counts = this.store.countByQueueAndState().getOrDefault(name, Map.of());
		QueueState state = this.store.queueStates()
			.stream()
			.filter((candidate) -> candidate.name().equals(name))
			.findFirst()
			.orElseGet(() -> QueueState.active(name));
		return info(state, counts, this.store.deadLetterStats().byQueue().getOrDefault(name, 0L));
	}

	private static QueueInfo info(QueueState state, Map<JobState, Long> counts, long deadLetters) {
		Map<JobState, Long> byState = new EnumMap<>(JobState.class);
		for (JobState jobState : JobState.values()) {
			byState.put(jobState, counts.getOrDefault(jobState, 0L));
		}
		return new QueueInfo(state.name(), state.paused(), state.pausedAt(), byState, deadLetters, state.rateLimit(),
				state.concurrency());
	}

	/**
	 * Every queue that holds a job or has a stored state, in name order, as the Admin API
	 * lists them (counts estimated on large tables, dead letters apart, latency).
	 */
	public List<QueueSummary> summaries() {
		return admin().queues();
	}

	/**
	 * One queue as {@link #summaries()} shows it, if it holds a job or has a stored state.
	 * @throws OjsValidationException when the name breaks {@link OjsNames}
	 */
	public Optional<QueueSummary> summary(String name) {
		return admin().queue(OjsNames.checkQueue(name, "queue"));
	}

	/** Whether per-minute statistics are kept ({@link #stats}, {@link #statsByQueue}). */
	public boolean hasStatistics() {
		return this.admin != null;
	}

	/** The store's clock, at the precision stored: the end of every statistics window. */
	public Instant now() {
		return admin().now();
	}

	/**
	 * Outcome counters of a queue (or of all, as queue {@code "*"}, for {@code null}) in
	 * periods of {@code periodMinutes} between {@code since} and {@code until}, oldest first.
	 */
	public List<StatsBucket> stats(Instant since, Instant until, int periodMinutes, @Nullable String queue) {
		return admin().stats(since, until, periodMinutes, queue);
	}

	/** Outcome counters per queue summed between {@code since} and {@code until}, by queue name. */
	public Map<String, StatsBucket> statsByQueue(Instant since, Instant until) {
		return admin().statsByQueue(since, until);
	}

	/**
	 * Deletes up to {@code limit} jobs of the queue in these terminal states created before
	 * {@code olderThan} ({@code null}: any time).
	 * @return how many were deleted
	 * @throws OjsValidationException naming {@code queue} when the name breaks {@link OjsNames},
	 * {@code states} when they are not terminal states (see {@link #purgeStates})
	 */
	public int purge(String queue, Set<JobState> states, @Nullable Instant olderThan, int limit) {
		return admin().purge(OjsNames.checkQueue(queue, "queue"), checkPurgeable(states), olderThan, limit);
	}

	/**
	 * How many jobs {@link #purge} would delete without a limit.
	 * @throws OjsValidationException as {@link #purge} does
	 */
	public long countPurgeable(String queue, Set<JobState> states, @Nullable Instant olderThan) {
		return admin().countPurgeable(OjsNames.checkQueue(queue, "queue"), checkPurgeable(states), olderThan);
	}

	/**
	 * The states of these names that {@link #purge} deletes: at least one, each a terminal
	 * {@link JobState} value ({@code completed}, {@code discarded}, {@code cancelled}).
	 * @throws OjsValidationException naming {@code states} otherwise
	 */
	public static Set<JobState> purgeStates(Collection<?> names) {
		Set<JobState> states = EnumSet.noneOf(JobState.class);
		for (Object name : names) {
			try {
				states.add(JobState.fromValue(String.valueOf(name)));
			}
			catch (IllegalArgumentException ex) {
				throw new OjsValidationException("states", "Unknown state '" + name + "'");
			}
		}
		return checkPurgeable(states);
	}

	private static Set<JobState> checkPurgeable(Set<JobState> states) {
		if (states.isEmpty()) {
			throw new OjsValidationException("states", "states must be a non-empty array of terminal states");
		}
		for (JobState state : states) {
			if (!state.isTerminal()) {
				throw new OjsValidationException("states",
						"Only terminal states (completed, discarded, cancelled) may be purged, not " + state.value());
			}
		}
		return states;
	}

	private AdminStore admin() {
		if (this.admin == null) {
			throw new UnsupportedOperationException(this.store.getClass().getName() + " keeps no queue statistics");
		}
		return this.admin;
	}

}

package dev.ojs.spring;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;

/**
 * Pauses, resumes and lists queues (ojs-queue-config.md §5.1, ojs-admin-api.md §6.1, §6.3,
 * §6.4). The state is stored in the database, so it holds on every node and across restarts:
 * this node's worker follows at once, every other node's within one
 * {@code ojs.worker.poll-interval}. Jobs already running (or claimed as the pause took
 * effect) finish; enqueues into a paused queue succeed and the jobs wait.
 */
public class OjsQueues {

	private static final Log logger = LogFactory.getLog(OjsQueues.class);

	private final JobStore store;

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
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.changed = Objects.requireNonNull(changed, "changed must not be null");
	}

	/**
	 * Pauses a queue, also one that has never held a job. Pausing a paused queue keeps
	 * its {@link QueueState#pausedAt()}.
	 * @param queue the queue name, at most 255 characters
	 * @return its state now
	 * @throws IllegalArgumentException when the name is blank or longer than 255 characters
	 * @throws UnsupportedOperationException when the job store cannot pause queues
	 */
	public QueueState pause(String queue) {
		QueueState state = this.store.pauseQueue(queue);
		logger.info("OJS queue '" + queue + "' paused");
		this.changed.run();
		return state;
	}

	/**
	 * Resumes a queue: workers claim its jobs again. Resuming a queue that is not paused
	 * changes nothing.
	 * @param queue the queue name, at most 255 characters
	 * @return its state now
	 * @throws IllegalArgumentException when the name is blank or longer than 255 characters
	 * @throws UnsupportedOperationException when the job store cannot pause queues
	 */
	public QueueState resume(String queue) {
		QueueState state = this.store.resumeQueue(queue);
		logger.info("OJS queue '" + queue + "' resumed");
		this.changed.run();
		return state;
	}

	/**
	 * Sets a queue's rate limit (ojs-queue-config.md §6.2, §8.3), also of a queue that has
	 * never held a job: at most {@code limit.limit()} of its jobs start per
	 * {@code limit.period()}, on all nodes and workers (in process and over HTTP) together.
	 * This node follows at once, other nodes within a second.
	 * @param queue the queue name, at most 255 characters
	 * @param limit the limit, or {@code null} to remove it
	 * @return its state now
	 * @throws IllegalArgumentException when the name is blank or longer than 255 characters
	 * @throws UnsupportedOperationException when the job store cannot limit queues
	 */
	public QueueState setRateLimit(String queue, @Nullable RateLimit limit) {
		QueueState state = this.store.setRateLimit(queue, limit);
		logger.info("OJS queue '" + queue + "' rate limit " + ((limit != null)
				? "set to " + limit.limit() + " per " + limit.period() : "removed"));
		return state;
	}

	/** The rate limits of the queues that have one, by queue name. */
	public Map<String, RateLimit> rateLimits() {
		Map<String, RateLimit> limits = new TreeMap<>();
		for (QueueState state : this.store.queueStates()) {
			if (state.rateLimit() != null) {
				limits.put(state.name(), state.rateLimit());
			}
		}
		return limits;
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
	 * Every known queue, in name order: those holding jobs and those ever paused or resumed
	 * (a paused queue without jobs too), with their counts and dead letters. Counting reads
	 * the whole job table.
	 */
	public List<QueueInfo> queues() {
		Map<String, Map<JobState, Long>> counts = this.store.countByQueueAndState();
		Map<String, Long> deadLetters = this.store.deadLetterStats().byQueue();
		Map<String, QueueState> states = new TreeMap<>();
		counts.keySet().forEach((queue) -> states.put(queue, QueueState.active(queue)));
		this.store.queueStates().forEach((state) -> states.put(state.name(), state));
		List<QueueInfo> queues = new ArrayList<>(states.size());
		states.forEach((queue, state) -> {
			Map<JobState, Long> byState = new EnumMap<>(JobState.class);
			for (JobState jobState : JobState.values()) {
				byState.put(jobState, counts.getOrDefault(queue, Map.of()).getOrDefault(jobState, 0L));
			}
			queues.add(new QueueInfo(queue, state.paused(), state.pausedAt(), byState,
					deadLetters.getOrDefault(queue, 0L)));
		});
		return queues;
	}

}

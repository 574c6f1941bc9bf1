package dev.ojs.spring.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import dev.ojs.job.JobState;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.QueueInfo;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

/**
 * Gauges {@value #DEPTH} (tags {@code queue}, {@code state}): the number of jobs in each
 * state of each queue, dead letters apart under {@value OjsDeadLetters#STATE} (not counted as
 * {@code discarded}), as on {@code /actuator/ojs}; and {@value #PAUSED} (tag {@code queue}): 1 while the queue is paused
 * (ojs-queue-config.md §5.1), else 0.
 * <p>
 * The counts and the paused queues come from one {@link OjsQueues#queues()} call (a count
 * and a read of the queue states), cached for the refresh interval: however often and by however many registries the gauges are
 * read, the store is queried at most once per interval, and only while someone reads them.
 * A failed query keeps the previous counts until the next interval.
 * <p>
 * Queues get gauges as they become known: from each query's result (the first when the
 * gauges are bound; a paused queue without jobs too) and from {@link #track(String)}, called
 * for every job event.
 */
public class QueueDepthMetrics implements MeterBinder {

	/** Name of the queue depth gauges. */
	public static final String DEPTH = "ojs.jobs.depth";

	/** Name of the paused queue gauges. */
	public static final String PAUSED = "ojs.queue.paused";

	private static final Log logger = LogFactory.getLog(QueueDepthMetrics.class);

	private final OjsQueues service;

	private final long refreshIntervalNanos;

	private final LongSupplier nanoTime;

	private final Set<String> queues = ConcurrentHashMap.newKeySet();

	private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

	private final ReentrantLock refreshLock = new ReentrantLock();

	private volatile Map<String, QueueInfo> counts = Map.of();

	private volatile Set<String> paused = Set.of();

	private volatile boolean refreshed;

	private volatile long refreshedAt;

	private volatile boolean failing;

	/**
	 * Creates the gauges' source.
	 * @param queues the queues to count
	 * @param refreshInterval how long one query's counts are served
	 */
	public QueueDepthMetrics(OjsQueues queues, Duration refreshInterval) {
		this(queues, refreshInterval, System::nanoTime);
	}

	QueueDepthMetrics(OjsQueues queues, Duration refreshInterval, LongSupplier nanoTime) {
		Assert.notNull(queues, "'queues' must not be null");
		Assert.isTrue(refreshInterval != null && !refreshInterval.isNegative(),
				"'refreshInterval' must not be null or negative");
		this.service = queues;
		this.refreshIntervalNanos = refreshInterval.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * Registers the gauges of every known queue, then tries one query to learn the queues
	 * that have jobs (a failure is logged; the gauges read the store again later).
	 */
	@Override
	public void bindTo(MeterRegistry registry) {
		this.registries.add(registry);
		this.queues.forEach((queue) -> register(registry, queue));
		currentCounts();
	}

	/**
	 * Makes sure the queue has gauges.
	 * @param queue a queue name
	 */
	public void track(String queue) {
		if (this.queues.add(queue)) {
			this.registries.forEach((registry) -> register(registry, queue));
		}
	}

	/**
	 * The number of jobs in a state of a queue, from counts at most one refresh interval
	 * old.
	 * @param queue the queue
	 * @param state the state
	 * @return the number of jobs
	 */
	public long depth(String queue, JobState state) {
		QueueInfo info = currentCounts().get(queue);
		if (info == null) {
			return 0L;
		}
		return info.count(state) - ((state == JobState.DISCARDED) ? info.deadLetters() : 0L);
	}

	/**
	 * The number of dead letters of a queue, from counts at most one refresh interval old.
	 * @param queue the queue
	 * @return the number of dead letters
	 */
	public long deadLetters(String queue) {
		QueueInfo info = currentCounts().get(queue);
		return (info != null) ? info.deadLetters() : 0L;
	}

	/**
	 * Whether a queue is paused, from states at most one refresh interval old.
	 * @param queue the queue
	 * @return whether it is paused
	 */
	public boolean isPaused(String queue) {
		currentCounts();
		return this.paused.contains(queue);
	}

	private Map<String, QueueInfo> currentCounts() {
		if (isStale() && this.refreshLock.tryLock()) {
			try {
				if (isStale()) {
					refresh();
				}
			}
			finally {
				this.refreshLock.unlock();
			}
		}
		return this.counts;
	}

	private boolean isStale() {
		return !this.refreshed || this.nanoTime.getAsLong() - this.refreshedAt >= this.refreshIntervalNanos;
	}

	private void refresh() {
		try {
			List<QueueInfo> queues = this.service.queues();
			this.counts = queues.stream().collect(Collectors.toUnmodifiableMap(QueueInfo::name, (queue) -> queue));
			this.paused = queues.stream().filter(QueueInfo::paused).map(QueueInfo::name).collect(Collectors.toSet());
			queues.forEach((queue) -> track(queue.name()));
			if (this.failing) {
				logger.info("Counting OJS jobs for " + DEPTH + " works again");
				this.failing = false;
			}
		}
		catch (RuntimeException ex) {
			if (!this.failing) {
				logger.warn("Counting OJS jobs for " + DEPTH + " failed; serving the previous counts", ex);
				this.failing = true;
			}
		}
		finally {
			this.refreshedAt = this.nanoTime.getAsLong();
			this.refreshed = true;
		}
	}

	private void register(MeterRegistry registry, String queue) {
		for (JobState state : JobState.values()) {
			Gauge.builder(DEPTH, () -> depth(queue, state))
				.description("Number of OJS jobs in a state of a queue")
				.tags("queue", queue, "state", state.value())
				.register(registry);
		}
		Gauge.builder(DEPTH, () -> deadLetters(queue))
			.description("Number of OJS jobs in a state of a queue")
			.tags("queue", queue, "state", OjsDeadLetters.STATE)
			.register(registry);
		Gauge.builder(PAUSED, () -> isPaused(queue) ? 1 : 0)
			.description("1 while the OJS queue is paused, else 0")
			.tags("queue", queue)
			.register(registry);
	}

}

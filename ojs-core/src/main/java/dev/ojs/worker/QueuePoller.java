package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * Claims one queue's due jobs for this node (spec §9.1) on a poller thread, and runs them on
 * the queue's handler threads through the {@link AttemptRunner}. It claims every type the node
 * handles (a job's queue is its own; a handler's queue is only its default), in batches
 * sized to the free {@link Slots}.
 * <p>
 * When to claim: at once while claims come back full (a backlog), gathering free slots for
 * {@value #GATHER_MILLIS} ms when fewer than a quarter are free; otherwise it idles,
 * {@value #MIN_IDLE_MILLIS} ms after a claim found work, doubling up to the poll interval,
 * woken early by its {@link Wakeup}. The due times of the queue's delayed jobs and retries
 * are read from the store after each notification and otherwise at least every
 * {@value #MAX_DUE_REFRESH_MILLIS} ms while idle. Store errors never end the poller: it
 * logs them and backs off, 100 ms doubling to 5 s.
 * <p>
 * While its queue is paused (ojs-queue-config.md §5.1, told by the {@link PauseWatcher}) it
 * claims nothing, and resuming wakes it. The store draws a rate-limited queue's claims from its
 * bucket (§8.3); when one comes back short for want of tokens, the poller looks again when the
 * next token is back.
 */
final class QueuePoller {

	static final long MIN_IDLE_MILLIS = 5;

	static final long GATHER_MILLIS = 5;

	/** Due times read per refresh from the store. */
	static final int DUE_TIMES_PER_REFRESH = 100;

	/** Longest time between two refreshes of the due times while idle. */
	static final long MAX_DUE_REFRESH_MILLIS = 1000;

	private static final long MIN_ERROR_BACKOFF_MILLIS = 100;

	private static final long MAX_ERROR_BACKOFF_MILLIS = 5000;

	private static final Log logger = LogFactory.getLog(QueuePoller.class);

	private final String queue;

	private final int concurrency;

	private final String nodeId;

	private final List<ClaimGroup> groups;

	/** The group of types without a per-node concurrency, which refills claim; {@code null} when none. */
	private final @Nullable ClaimGroup refilled;

	private final Map<String, HandlerRegistration> registrations;

	private final WorkerStore store;

	private final Slots slots;

	private final LocalAttempts attempts;

	private final AttemptRunner executor;

	private final long pollIntervalMillis;

	private final long dueRefreshNanos;

	private final Wakeup wakeup;

	private final ThreadPoolExecutor handlerThreads;

	private final Thread thread;

	private volatile boolean waitingForSlots;

	private volatile boolean refreshDue = true;

	private volatile boolean paused;

	/**
	 * Whether the last claim that had slots for the types refills claim found fewer due jobs
	 * than slots, so none was left waiting: a chain's step may hand its slot over ({@link Refills}).
	 */
	private volatile boolean drained = true;

	/** When the due times were last read from the store (poller thread only). */
	private long dueRefreshedNanos = System.nanoTime();

	QueuePoller(String queue, int concurrency, String nodeId, List<ClaimGroup> groups,
			Map<String, HandlerRegistration> registrations, WorkerStore store, Slots slots, LocalAttempts attempts,
			AttemptRunner executor, Duration pollInterval) {
		this.queue = queue;
		this.concurrency = concurrency;
		this.nodeId = nodeId;
		this.groups = groups;
		this.refilled = groups.stream().filter((group) -> group.limit == 0).findFirst().orElse(null);
		this.registrations = registrations;
		this.store = store;
		this.slots = slots;
		this.attempts = attempts;
		this.executor = executor;
		this.pollIntervalMillis = Math.max(MIN_IDLE_MILLIS, pollInterval.toMillis());
		this.dueRefreshNanos = TimeUnit.MILLISECONDS.toNanos(Math.min(MAX_DUE_REFRESH_MILLIS, this.pollIntervalMillis / 2));
		this.wakeup = new Wakeup(() -> store.now().toEpochMilli());
		slots.onFree(queue, this::slotsFreed);
		String name = "ojs-" + queue;
		AtomicInteger threads = new AtomicInteger();
		this.handlerThreads = new ThreadPoolExecutor(concurrency, concurrency, 60, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (runnable) -> {
					Thread thread = new Thread(runnable, name + "-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.handlerThreads.allowCoreThreadTimeOut(true);
		this.thread = new Thread(this::run, name + "-poller");
	}

	void start() {
		this.thread.start();
	}

	/** Stops claiming and waits up to {@code timeout} for a claim in progress to finish. */
	void stopClaiming(Duration timeout) {
		this.wakeup.stop();
		try {
			this.thread.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stops the handler threads, interrupting handlers still running. */
	void stopHandlers() {
		this.handlerThreads.shutdownNow();
	}

	/** Jobs were inserted into this queue (or may have been): look now. */
	void inserted() {
		this.refreshDue = true;
		this.wakeup.wake();
	}

	/** A delayed job or retry of this queue is due at {@code due}: look then. */
	void offerDue(Instant due) {
		this.wakeup.offerDue(due);
	}

	/** The queue is paused or resumed: claim nothing, or look now. */
	void paused(boolean paused) {
		if (this.paused == paused) {
			return;
		}
		this.paused = paused;
		if (paused) {
			logger.info("OJS queue '" + this.queue + "' is paused: node " + this.nodeId + " claims none of its jobs");
		}
		else {
			logger.info("OJS queue '" + this.queue + "' is resumed: node " + this.nodeId + " claims its jobs again");
			this.wakeup.wake();
		}
	}

	private void slotsFreed() {
		if (this.waitingForSlots) {
			this.wakeup.wake();
		}
	}

	private void run() {
		long idle = MIN_IDLE_MILLIS;
		long errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
		boolean look = true;
		while (!this.wakeup.isStopped()) {
			try {
				if (this.paused) {
					this.wakeup.await(this.pollIntervalMillis);
					look = true;
					continue;
				}
				if (!look) {
					long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(idle);
					while (this.wakeup.idle(end, this.dueRefreshedNanos + this.dueRefreshNanos)) {
						refreshDueTimes();
					}
					idle = Math.min(this.pollIntervalMillis, idle * 2);
					look = true;
					continue;
				}
				int free = this.slots.free(this.queue);
				if (free < Math.max(1, this.concurrency / 4)) {
					// busy: wait for a slot, then briefly gather more so claims stay batched
					this.waitingForSlots = true;
					this.wakeup.await((free <= 0) ? this.pollIntervalMillis : GATHER_MILLIS);
					this.waitingForSlots = false;
					if (free <= 0) {
						continue;
					}
					free = this.slots.free(this.queue);
					if (this.paused) {
						continue;
					}
				}
				Claimed claimed = claim(free);
				errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
				if (claimed.jobs() > 0) {
					idle = MIN_IDLE_MILLIS;
				}
				if (!claimed.full()) {
					look = false;
					refreshDueTimes();
					Instant throttled = this.store.throttledUntil(this.queue);
					if (throttled != null) {
						// a rate-limited queue: look again when its next token is back
						this.wakeup.offerDue(throttled.plusMillis(1));
					}
					if (this.store.atConcurrencyLimit(this.queue)) {
						// every slot of the queue's limit is taken: a job of it that ends wakes this poller
						idle = this.pollIntervalMillis;
					}
				}
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				logger.warn("OJS poller for queue '" + this.queue + "' failed, retrying in " + errorBackoff + " ms: "
						+ ex);
				this.wakeup.await(errorBackoff);
				errorBackoff = Math.min(MAX_ERROR_BACKOFF_MILLIS, errorBackoff * 2);
			}
		}
	}

	/** How many jobs a claim round took, and whether any group came back full. */
	private record Claimed(int jobs, boolean full) {
	}

	/** Claims up to {@code free} jobs of every group and hands them to the handler threads. */
	private Claimed claim(int free) {
		long started = this.store.now().toEpochMilli();
		boolean full = false;
		int taken = this.slots.take(this.queue, free);
		int left = taken;
		try {
			for (ClaimGroup group : this.groups) {
				int reserved = this.slots.reserve(group, left);
				if (reserved <= 0) {
					continue;
				}
				List<Job> jobs = List.of();
				try {
					jobs = this.store.claim(this.nodeId, this.queue, group.visibilityByType, reserved);
				}
				finally {
					this.slots.claimed(group, reserved, jobs.size());
				}
				full |= jobs.size() == reserved;
				if (group == this.refilled) {
					this.drained = jobs.size() < reserved;
				}
				left -= jobs.size();
				this.slots.started(this.queue, jobs.size());
				run(jobs, group);
			}
		}
		finally {
			this.slots.untake(this.queue, left);
		}
		this.wakeup.forgetDueTimesBefore(started);
		return new Claimed(taken - left, full);
	}

	/** Whether this poller's last claim of the types refills claim left no due job waiting. */
	boolean drained() {
		return this.drained;
	}

	/**
	 * Takes up to {@code wanted} free slots for a claim of this queue in the transaction of
	 * outcomes that free as many ({@link Refills}); {@code null} when the queue is paused, the
	 * poller stops, no slot is free or every type has a per-node concurrency of its own (those
	 * are claimed here only).
	 */
	WorkerStore.@Nullable Refill refill(int wanted) {
		if (this.refilled == null || this.paused || this.wakeup.isStopped()) {
			return null;
		}
		int taken = this.slots.take(this.queue, wanted);
		return (taken > 0) ? new WorkerStore.Refill(this.nodeId, this.queue, this.refilled.visibilityByType, taken)
				: null;
	}

	/**
	 * A {@link #refill} claimed {@code jobs}: runs them, and gives back the slots it did not
	 * use. Once the poller stopped it hands them back unstarted, as shutdown does.
	 */
	void refilled(WorkerStore.Refill refill, List<Job> jobs) {
		ClaimGroup group = Objects.requireNonNull(this.refilled);
		if (this.wakeup.isStopped() && !jobs.isEmpty()) {
			this.slots.untake(this.queue, refill.limit());
			try {
				this.store.release(jobs);
			}
			catch (RuntimeException ex) {
				logger.warn("OJS could not hand back " + jobs.size() + " jobs claimed as node " + this.nodeId
						+ " stopped; the rescuer takes them when their reservations expire: " + ex);
			}
			return;
		}
		this.slots.untake(this.queue, refill.limit() - jobs.size());
		this.slots.started(this.queue, jobs.size());
		run(jobs, group);
	}

	private void run(List<Job> jobs, ClaimGroup group) {
		for (Job job : jobs) {
			LocalAttempt attempt = this.attempts.track(new LocalAttempt(job, this.registrations.get(job.type()),
					group.visibilityByType.get(job.type()), this.queue, this.store));
			this.handlerThreads.execute(() -> this.executor.run(attempt));
		}
	}

	private void refreshDueTimes() {
		long now = System.nanoTime();
		if (this.refreshDue || now - this.dueRefreshedNanos >= this.dueRefreshNanos) {
			this.refreshDue = false;
			this.dueRefreshedNanos = now;
			this.wakeup.addDueTimes(this.store.nextDueTimes(this.queue, DUE_TIMES_PER_REFRESH));
		}
	}

}

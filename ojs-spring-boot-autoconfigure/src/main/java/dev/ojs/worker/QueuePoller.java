package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;

/**
 * Claims and runs one queue's jobs on this node: one poller thread and a bounded pool of
 * {@code concurrency} handler threads. It claims every type this node handles: the queue is
 * a property of the job, and a handler's queue is only its default.
 * <p>
 * Slots: the poller never claims more jobs than it has free slots (the queue's concurrency
 * minus the attempts running), and for a type with its own concurrency limit never more
 * than that type's free slots on this node, shared with the other queues' pollers through
 * its {@link ClaimGroup} (such types are claimed in their own statement, so priority order
 * holds within each claim, not across them). Handlers never run more than the concurrency at
 * once, and outcomes waiting for the completer count too: an attempt holds its reservation
 * until its outcome is written (or rejected as stale, or dropped), and at most another
 * concurrency's worth of written-but-unwritten outcomes may wait, so a queue never holds more
 * than twice its concurrency in reservations. Handlers go on while the completer writes a
 * batch, and when the completer falls behind the poller waits for it instead of claiming
 * more. A poller refused by a type's limit is woken when that type's slots free up.
 * <p>
 * When to claim: at once while the last claim came back full (a backlog), gathering free
 * slots for up to {@value #GATHER_MILLIS} ms when fewer than a quarter are free so claims
 * stay batched. Otherwise the poller idles: {@value #MIN_IDLE_MILLIS} ms after a claim found
 * work, doubling up to the poll interval (adaptive polling), woken early by an insert
 * notification (PostgreSQL) or at each known due time of a delayed job or retry in the queue.
 * Due times are kept sorted (at most {@value #MAX_DUE_TIMES}, the earliest; a claim forgets
 * those it covered). They come from this node's own retry writes at once, and from the
 * database (the earliest {@value #DUE_TIMES_PER_REFRESH} {@code scheduled_at} of the queue's
 * scheduled and retryable jobs, which covers other nodes' retries and delayed jobs) after
 * each notification, and otherwise twice per poll interval but at least every
 * {@value #MAX_DUE_REFRESH_MILLIS} ms while idle (a refresh does not end the idle wait); so
 * a retry is picked up within milliseconds of coming due. Database errors
 * never end the poller: it logs them and backs off, 100 ms doubling to 5 s.
 */
final class QueuePoller {

	static final long MIN_IDLE_MILLIS = 5;

	static final long GATHER_MILLIS = 5;

	/** Known due times kept per queue; later ones are found again by a database refresh. */
	static final int MAX_DUE_TIMES = 4096;

	/** Due times read per database refresh. */
	static final int DUE_TIMES_PER_REFRESH = 100;

	/** Longest time between two database refreshes of the due times while idle. */
	static final long MAX_DUE_REFRESH_MILLIS = 1000;

	private static final long MIN_ERROR_BACKOFF_MILLIS = 100;

	private static final long MAX_ERROR_BACKOFF_MILLIS = 5000;

	private static final Log logger = LogFactory.getLog(QueuePoller.class);

	private final String queue;

	private final int concurrency;

	private final WorkerStore store;

	private final Worker worker;

	private final long pollIntervalMillis;

	private final long dueRefreshNanos;

	/** Shared with the other queues' pollers. */
	private final List<ClaimGroup> groups;

	private final Map<String, ClaimGroup> groupByType = new HashMap<>();

	/** Attempts whose handler has not returned yet. */
	private final AtomicInteger running = new AtomicInteger();

	/** Slots taken: claimed attempts whose outcome is not yet written (or given up). */
	private final AtomicInteger held = new AtomicInteger();

	private final ThreadPoolExecutor executor;

	private final Thread thread;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition wakeUp = this.lock.newCondition();

	/** Look now (guarded by {@link #lock}). */
	private boolean signalled;

	/** Known due times (epoch ms) of delayed jobs and retries, earliest first (guarded by {@link #lock}). */
	private final TreeSet<Long> dueTimes = new TreeSet<>();

	private volatile boolean claiming = true;

	private volatile boolean waitingForSlots;

	private volatile boolean idling;

	/** When the current idle wait ends in a claim ({@link System#nanoTime()}), while {@link #idling}. */
	private volatile long idleUntilNanos;

	private volatile boolean refreshDue = true;

	/** When the due times were last read from the database (poller thread only). */
	private long dueRefreshedNanos = System.nanoTime();

	QueuePoller(String queue, int concurrency, List<ClaimGroup> groups, WorkerStore store, Worker worker,
			Duration pollInterval) {
		this.queue = queue;
		this.concurrency = concurrency;
		this.store = store;
		this.worker = worker;
		this.pollIntervalMillis = Math.max(MIN_IDLE_MILLIS, pollInterval.toMillis());
		this.dueRefreshNanos = TimeUnit.MILLISECONDS.toNanos(Math.min(MAX_DUE_REFRESH_MILLIS, this.pollIntervalMillis / 2));
		this.groups = groups;
		for (ClaimGroup group : groups) {
			group.visibilityByType.keySet().forEach((type) -> this.groupByType.put(type, group));
			group.servedBy(this);
		}
		String name = "ojs-" + queue;
		AtomicInteger threads = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(concurrency, concurrency, 60, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (runnable) -> {
					Thread thread = new Thread(runnable, name + "-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.executor.allowCoreThreadTimeOut(true);
		this.thread = new Thread(this::run, name + "-poller");
	}

	/** Attempts whose handler has not returned yet. */
	int running() {
		return this.running.get();
	}

	/** How long the current idle wait still lasts unless woken; zero while not idle. */
	Duration idleRemaining() {
		long remaining = this.idleUntilNanos - System.nanoTime();
		return (this.idling && remaining > 0) ? Duration.ofNanos(remaining) : Duration.ZERO;
	}

	void start() {
		this.thread.start();
	}

	/** Stops claiming and waits up to {@code timeout} for a claim in progress to finish. */
	void stopClaiming(Duration timeout) {
		this.claiming = false;
		wake();
		try {
			this.thread.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stops the handler threads, interrupting handlers still running. */
	void shutdownExecutor() {
		this.executor.shutdownNow();
	}

	/** Jobs were inserted into this queue (or may have been): look now. */
	void notifyInserted() {
		this.refreshDue = true;
		wake();
	}

	/** A delayed job or retry of this queue is due at {@code due}: look then. */
	void offerDue(Instant due) {
		if (due == null) {
			return;
		}
		long millis = due.toEpochMilli();
		this.lock.lock();
		try {
			addDueTime(millis);
			if (this.dueTimes.first() == millis) {
				// the idle wait ends sooner now: let it recompute
				this.wakeUp.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Attempts that may be claimed now: a free handler thread each, while fewer than a
	 * concurrency's worth of outcomes wait for the completer (reservations held stay below
	 * twice the concurrency).
	 */
	private int freeSlots() {
		return Math.min(this.concurrency - this.running.get(), 2 * this.concurrency - this.held.get());
	}

	/**
	 * A handler returned (or the attempt ended before it ran).
	 * @param outcomeQueued whether its outcome went to the completer, which frees the slot
	 * ({@link #outcomeWritten}) once it is written (for an attempt abandoned at shutdown,
	 * the worker saw to the outcome and the slot); otherwise the slot is free now
	 */
	void finished(Execution execution, boolean outcomeQueued) {
		this.running.decrementAndGet();
		if (!outcomeQueued) {
			freeSlot(execution);
		}
		else if (this.waitingForSlots) {
			wake();
		}
	}

	/** The completer wrote, rejected or gave up the outcome of an attempt claimed here: its slot is free. */
	void outcomeWritten(Execution execution) {
		freeSlot(execution);
	}

	private void freeSlot(Execution execution) {
		this.held.decrementAndGet();
		ClaimGroup group = this.groupByType.get(execution.job().type());
		if (group != null) {
			group.release(1);
		}
		if (this.waitingForSlots) {
			wake();
		}
	}

	/** Look now. */
	void wake() {
		this.lock.lock();
		try {
			this.signalled = true;
			this.wakeUp.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Waits until woken or {@code millis} passed; consumes the wake-up. */
	private void await(long millis) {
		this.lock.lock();
		try {
			long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
			while (!this.signalled && nanos > 0 && this.claiming) {
				nanos = this.wakeUp.awaitNanos(nanos);
			}
			this.signalled = false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.claiming = false;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Idles until {@code end} ({@link System#nanoTime()}), the earliest known due time or a
	 * wake-up, which it consumes; or until the due times should be refreshed from the
	 * database, which it leaves to the caller.
	 * @return whether it stopped for a due time refresh (and should go on idling after it)
	 */
	private boolean idle(long end) {
		this.lock.lock();
		try {
			while (!this.signalled && this.claiming) {
				long now = System.nanoTime();
				long wait = end - now;
				if (!this.dueTimes.isEmpty()) {
					// +1 ms: the claim compares scheduled_at with the clock at microsecond precision
					long untilDue = this.dueTimes.first() + 1 - this.store.now().toEpochMilli();
					wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(untilDue));
				}
				if (wait <= 0) {
					break;
				}
				long untilRefresh = this.dueRefreshedNanos + this.dueRefreshNanos - now;
				if (untilRefresh <= 0) {
					return true;
				}
				this.idleUntilNanos = now + wait;
				this.idling = true;
				this.wakeUp.awaitNanos(Math.min(wait, untilRefresh));
			}
			this.signalled = false;
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.claiming = false;
			return false;
		}
		finally {
			this.idling = false;
			this.lock.unlock();
		}
	}

	private void run() {
		long idle = MIN_IDLE_MILLIS;
		long errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
		boolean look = true;
		while (this.claiming) {
			try {
				if (!look) {
					long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(idle);
					while (idle(end)) {
						refreshDueTimes();
					}
					idle = Math.min(this.pollIntervalMillis, idle * 2);
					look = true;
					continue;
				}
				int free = freeSlots();
				if (free < Math.max(1, this.concurrency / 4)) {
					// busy: wait for a slot, then briefly gather more so claims stay batched
					this.waitingForSlots = true;
					await((free <= 0) ? this.pollIntervalMillis : GATHER_MILLIS);
					this.waitingForSlots = false;
					if (free <= 0) {
						continue;
					}
					free = freeSlots();
				}
				Claimed claimed = claim(free);
				errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
				if (claimed.jobs() > 0) {
					// work found: poll again soon
					idle = MIN_IDLE_MILLIS;
				}
				if (!claimed.full()) {
					look = false;
					refreshDueTimes();
				}
			}
			catch (Throwable ex) {
				Listeners.rethrowIfFatal(ex);
				logger.warn("OJS poller for queue '" + this.queue + "' failed, retrying in " + errorBackoff + " ms: "
						+ ex);
				await(errorBackoff);
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
		int left = free;
		for (ClaimGroup group : this.groups) {
			int want = group.reserve(left);
			if (want <= 0) {
				continue;
			}
			List<Job> jobs = List.of();
			try {
				jobs = this.store.claim(this.worker.nodeId(), this.queue, group.visibilityByType, want);
			}
			finally {
				// give back the slots the claim did not fill (all of them when it failed)
				group.release(want - jobs.size());
			}
			full |= jobs.size() == want;
			left -= jobs.size();
			this.held.addAndGet(jobs.size());
			this.running.addAndGet(jobs.size());
			for (Job job : jobs) {
				Execution execution = this.worker.track(job, group.visibilityByType.get(job.type()), this);
				this.executor.execute(() -> this.worker.execute(execution));
			}
		}
		forgetDueTimesBefore(started);
		return new Claimed(free - left, full);
	}

	private void refreshDueTimes() {
		long now = System.nanoTime();
		if (this.refreshDue || now - this.dueRefreshedNanos >= this.dueRefreshNanos) {
			this.refreshDue = false;
			this.dueRefreshedNanos = now;
			List<Instant> due = this.store.nextDueTimes(this.queue, DUE_TIMES_PER_REFRESH);
			this.lock.lock();
			try {
				due.forEach((instant) -> addDueTime(instant.toEpochMilli()));
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	/** Keeps the earliest {@link #MAX_DUE_TIMES} (caller holds the lock). */
	private void addDueTime(long millis) {
		if (this.dueTimes.add(millis) && this.dueTimes.size() > MAX_DUE_TIMES) {
			this.dueTimes.pollLast();
		}
	}

	/**
	 * Forgets due times a claim that started at {@code millis} covered: it claimed every job
	 * due by then that this node could take.
	 */
	private void forgetDueTimesBefore(long millis) {
		this.lock.lock();
		try {
			this.dueTimes.headSet(millis).clear();
		}
		finally {
			this.lock.unlock();
		}
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;

/**
 * Claims and runs one queue's jobs on this node: one poller thread and a bounded pool of
 * {@code concurrency} handler threads.
 * <p>
 * Slots: the poller never claims more jobs than it has free slots (the queue's concurrency
 * minus the attempts running), and for a type with its own concurrency limit never more
 * than that type's free slots (such types are claimed in their own statement, so priority
 * order holds within each claim, not across them). A slot is free again when the handler
 * returns; writing the outcome is the completer's business.
 * <p>
 * When to claim: at once while the last claim came back full (a backlog), gathering free
 * slots for up to {@value #GATHER_MILLIS} ms when fewer than a quarter are free so claims
 * stay batched. Otherwise the poller idles: {@value #MIN_IDLE_MILLIS} ms after it last found
 * work, doubling up to the poll interval (adaptive polling), woken early by an insert
 * notification (PostgreSQL) or at the earliest known due time of a delayed job or retry in
 * the queue. Due times come from this node's own retry writes at once, and from the database
 * ({@code min(scheduled_at)} of the queue's scheduled and retryable jobs) at most twice per
 * poll interval while idle and after each notification, so a retry is picked up within
 * milliseconds of coming due. Database errors never end the poller: it logs them and backs
 * off, 100 ms doubling to 5 s.
 */
final class QueuePoller {

	static final long MIN_IDLE_MILLIS = 5;

	static final long GATHER_MILLIS = 5;

	private static final long MIN_ERROR_BACKOFF_MILLIS = 100;

	private static final long MAX_ERROR_BACKOFF_MILLIS = 5000;

	private static final Log logger = LogFactory.getLog(QueuePoller.class);

	/** Types claimed together: all types without their own limit, or one limited type. */
	private static final class ClaimGroup {

		final Map<String, Duration> visibilityByType = new LinkedHashMap<>();

		/** The type's own concurrency; 0 = only the queue's limit. */
		final int limit;

		final AtomicInteger running = new AtomicInteger();

		ClaimGroup(int limit) {
			this.limit = limit;
		}

	}

	private final String queue;

	private final int concurrency;

	private final JdbcJobStore store;

	private final Worker worker;

	private final long pollIntervalMillis;

	private final List<ClaimGroup> groups = new ArrayList<>();

	private final Map<String, ClaimGroup> groupByType = new LinkedHashMap<>();

	private final AtomicInteger running = new AtomicInteger();

	private final ThreadPoolExecutor executor;

	private final Thread thread;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition wakeUp = this.lock.newCondition();

	private boolean signalled;

	private volatile boolean claiming = true;

	private volatile boolean waitingForSlots;

	/** Earliest known due time (epoch ms) of a delayed job or retry; MAX_VALUE when none. */
	private final AtomicLong nextDueMillis = new AtomicLong(Long.MAX_VALUE);

	/** When the current idle wait ends (epoch ms); 0 while not idle. */
	private volatile long idleUntilMillis;

	private volatile boolean refreshDue = true;

	private long dueRefreshedNanos;

	QueuePoller(String queue, int concurrency, List<HandlerRegistration> registrations, Duration defaultVisibility,
			JdbcJobStore store, Worker worker, Duration pollInterval) {
		this.queue = queue;
		this.concurrency = concurrency;
		this.store = store;
		this.worker = worker;
		this.pollIntervalMillis = Math.max(MIN_IDLE_MILLIS, pollInterval.toMillis());
		ClaimGroup unlimited = new ClaimGroup(0);
		for (HandlerRegistration registration : registrations) {
			ClaimGroup group = (registration.concurrency() > 0) ? new ClaimGroup(registration.concurrency()) : unlimited;
			group.visibilityByType.put(registration.type(), Worker.visibilityTimeout(registration, defaultVisibility));
			if (group != unlimited) {
				this.groups.add(group);
			}
			this.groupByType.put(registration.type(), group);
		}
		if (!unlimited.visibilityByType.isEmpty()) {
			this.groups.add(unlimited);
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
		this.thread.setDaemon(true);
	}

	String queue() {
		return this.queue;
	}

	int concurrency() {
		return this.concurrency;
	}

	/** Attempts whose handler has not returned yet. */
	int running() {
		return this.running.get();
	}

	void start() {
		this.thread.start();
	}

	/** Stops claiming and waits up to {@code timeout} for a claim in progress to finish. */
	void stopClaiming(Duration timeout) {
		this.claiming = false;
		signal();
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
		signal();
	}

	/** A delayed job or retry of this queue is due at {@code due}. */
	void offerDue(Instant due) {
		if (due != null) {
			long millis = due.toEpochMilli();
			this.nextDueMillis.accumulateAndGet(millis, Math::min);
			long idleUntil = this.idleUntilMillis;
			if (idleUntil != 0 && millis < idleUntil) {
				signal();
			}
		}
	}

	/** A handler returned: its slot is free. */
	void finished(Execution execution) {
		this.running.decrementAndGet();
		ClaimGroup group = this.groupByType.get(execution.job().type());
		if (group != null && group.limit > 0) {
			group.running.decrementAndGet();
		}
		if (this.waitingForSlots) {
			signal();
		}
	}

	private void signal() {
		this.lock.lock();
		try {
			this.signalled = true;
			this.wakeUp.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Waits until signalled or {@code millis} passed; consumes the signal. */
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

	private void run() {
		long idle = MIN_IDLE_MILLIS;
		long errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
		boolean look = true;
		while (this.claiming) {
			try {
				if (!look) {
					long wait = idleWait(idle);
					this.idleUntilMillis = this.store.now().toEpochMilli() + wait;
					await(wait);
					this.idleUntilMillis = 0;
					idle = Math.min(this.pollIntervalMillis, idle * 2);
					look = true;
					continue;
				}
				int free = this.concurrency - this.running.get();
				if (free < Math.max(1, this.concurrency / 4)) {
					// busy: wait for a slot, then briefly gather more so claims stay batched
					this.waitingForSlots = true;
					await((free <= 0) ? this.pollIntervalMillis : GATHER_MILLIS);
					this.waitingForSlots = false;
					if (free <= 0) {
						continue;
					}
					free = this.concurrency - this.running.get();
				}
				boolean full = claim(free);
				errorBackoff = MIN_ERROR_BACKOFF_MILLIS;
				if (full) {
					idle = MIN_IDLE_MILLIS;
				}
				else {
					look = false;
					refreshDueTime();
				}
			}
			catch (RuntimeException ex) {
				logger.warn("OJS poller for queue '" + this.queue + "' failed, retrying in " + errorBackoff + " ms: "
						+ ex);
				await(errorBackoff);
				errorBackoff = Math.min(MAX_ERROR_BACKOFF_MILLIS, errorBackoff * 2);
			}
		}
	}

	/** Claims up to {@code free} jobs and hands them to the handler threads; whether any group came back full. */
	private boolean claim(int free) {
		boolean full = false;
		int left = free;
		for (ClaimGroup group : this.groups) {
			int want = (group.limit > 0) ? Math.min(left, group.limit - group.running.get()) : left;
			if (want <= 0) {
				continue;
			}
			List<Job> jobs = this.store.claim(this.worker.nodeId(), this.queue, group.visibilityByType, want);
			full |= jobs.size() == want;
			left -= jobs.size();
			this.running.addAndGet(jobs.size());
			if (group.limit > 0) {
				group.running.addAndGet(jobs.size());
			}
			for (Job job : jobs) {
				Execution execution = this.worker.track(job, group.visibilityByType.get(job.type()));
				this.executor.execute(() -> this.worker.execute(execution, this));
			}
		}
		return full;
	}

	/** How long to idle: the adaptive interval, or less when a known due time comes sooner. */
	private long idleWait(long idle) {
		long due = this.nextDueMillis.get();
		if (due == Long.MAX_VALUE) {
			return idle;
		}
		// +1 ms: the claim compares scheduled_at with the clock at microsecond precision
		long untilDue = due + 1 - this.store.now().toEpochMilli();
		if (untilDue <= idle) {
			this.nextDueMillis.compareAndSet(due, Long.MAX_VALUE);
		}
		return Math.max(0, Math.min(idle, untilDue));
	}

	private void refreshDueTime() {
		long now = System.nanoTime();
		// half the poll interval: an idle cycle (wait + claim) is never shorter than that
		if (this.refreshDue || now - this.dueRefreshedNanos >= TimeUnit.MILLISECONDS.toNanos(this.pollIntervalMillis / 2)) {
			this.refreshDue = false;
			this.dueRefreshedNanos = now;
			Instant due = this.store.nextDueAt(this.queue);
			if (due != null) {
				this.nextDueMillis.accumulateAndGet(due.toEpochMilli(), Math::min);
			}
		}
	}

}

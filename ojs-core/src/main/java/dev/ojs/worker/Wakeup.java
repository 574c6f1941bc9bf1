package dev.ojs.worker;

import java.time.Instant;
import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * When one queue's poller looks next: at a wake-up (an insert notification, freed slots,
 * stop), at the earliest known due time of a delayed job or retry, or at the end of its idle
 * wait. Due times are kept sorted, at most {@value #MAX_DUE_TIMES} (the earliest), and a
 * claim forgets those it covered.
 */
final class Wakeup {

	/** Known due times kept; later ones are found again by a refresh from the store. */
	static final int MAX_DUE_TIMES = 4096;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final LongSupplier nowMillis;

	/** Look now (guarded by {@link #lock}). */
	private boolean signalled;

	/** Known due times (epoch ms), earliest first (guarded by {@link #lock}). */
	private final TreeSet<Long> dueTimes = new TreeSet<>();

	private volatile boolean stopped;

	/** @param nowMillis the store's clock, which due times are compared with */
	Wakeup(LongSupplier nowMillis) {
		this.nowMillis = nowMillis;
	}

	/** Look now. */
	void wake() {
		this.lock.lock();
		try {
			this.signalled = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Ends every wait, now and later. */
	void stop() {
		this.stopped = true;
		wake();
	}

	boolean isStopped() {
		return this.stopped;
	}

	/** A delayed job or retry of the queue is due at {@code due}: look then. */
	void offerDue(Instant due) {
		long millis = due.toEpochMilli();
		this.lock.lock();
		try {
			add(millis);
			if (this.dueTimes.first() == millis) {
				// the idle wait ends sooner now: let it recompute
				this.changed.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Due times read from the store. */
	void addDueTimes(Collection<Instant> due) {
		this.lock.lock();
		try {
			due.forEach((instant) -> add(instant.toEpochMilli()));
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Forgets the due times a claim that started at {@code millis} covered. */
	void forgetDueTimesBefore(long millis) {
		this.lock.lock();
		try {
			this.dueTimes.headSet(millis).clear();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Waits until woken or {@code millis} passed, whatever the due times; consumes the wake-up. */
	void await(long millis) {
		this.lock.lock();
		try {
			long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
			while (!this.signalled && nanos > 0 && !this.stopped) {
				nanos = this.changed.awaitNanos(nanos);
			}
			this.signalled = false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.stopped = true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Idles until {@code endNanos} ({@link System#nanoTime()}), the earliest due time or a
	 * wake-up, which it consumes; or until {@code refreshNanos}, when the caller should
	 * refresh the due times from the store and idle on.
	 * @return whether it stopped for a refresh
	 */
	boolean idle(long endNanos, long refreshNanos) {
		this.lock.lock();
		try {
			while (!this.signalled && !this.stopped) {
				long now = System.nanoTime();
				long wait = endNanos - now;
				if (!this.dueTimes.isEmpty()) {
					// +1 ms: claims compare scheduled_at with the clock at microsecond precision
					long untilDue = this.dueTimes.first() + 1 - this.nowMillis.getAsLong();
					wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(untilDue));
				}
				if (wait <= 0) {
					break;
				}
				long untilRefresh = refreshNanos - now;
				if (untilRefresh <= 0) {
					return true;
				}
				this.changed.awaitNanos(Math.min(wait, untilRefresh));
			}
			this.signalled = false;
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.stopped = true;
			return false;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void add(long millis) {
		if (this.dueTimes.add(millis) && this.dueTimes.size() > MAX_DUE_TIMES) {
			this.dueTimes.pollLast();
		}
	}

}

package dev.ojs.worker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The handler slots of one node: the only place they are taken and given back.
 * <p>
 * A queue of concurrency {@code n} runs at most {@code n} handlers at once, and claims only
 * while fewer than {@code n} are busy (ojs-worker-protocol.md §8.2). An attempt holds its slot
 * from its claim until its outcome is written (or rejected, or given up). A claim takes a job
 * for each free handler, plus the jobs the busy handlers are expected to reach
 * within {@value #PREFETCH_HORIZON_MILLIS} ms (the prefetch: {@code n} x that horizon / the
 * queue's average handler time, at most {@value #PREFETCH_FACTOR}{@code n}), which wait for a
 * handler in the queue's pool. So short jobs travel in claims larger than the free handlers,
 * while a queue of 1-second jobs gets no prefetch and no job waits reserved behind one. A queue
 * holds at most {@code 2n} reservations plus its prefetch ({@code 10n} in all): when outcomes
 * cannot be written, it stops claiming. A type with its own concurrency
 * ({@link ClaimGroup#limit}) is limited per node across every queue it is claimed from.
 * Pollers are told when slots they wait for come free.
 */
final class Slots {

	/** How soon the busy handlers must be expected to reach a job claimed for them. */
	static final long PREFETCH_HORIZON_MILLIS = 5;

	/**
	 * The prefetch is at most this many times the concurrency: what lets no-op jobs travel in
	 * claims and completions of hundreds (at twice the concurrency a drain of them ran a fifth
	 * slower, BENCHMARKS.md).
	 */
	static final int PREFETCH_FACTOR = 8;

	private static final long PREFETCH_HORIZON_NANOS = TimeUnit.MILLISECONDS.toNanos(PREFETCH_HORIZON_MILLIS);

	/** One served queue's counters. */
	private static final class Queue {

		final int concurrency;

		/** Attempts whose handler has not returned. */
		final AtomicInteger running = new AtomicInteger();

		/** Attempts taken for claims under way ({@link Slots#take}). */
		final AtomicInteger claiming = new AtomicInteger();

		/** Attempts claimed (or taken for a claim) whose outcome is not yet written. */
		final AtomicInteger held = new AtomicInteger();

		/** Average time a handler of this queue runs, in nanoseconds (1/8 weight to the latest); 0 until one returned. */
		final AtomicLong handlerNanos = new AtomicLong();

		/** When a handler of this queue last returned, on the nanosecond clock. */
		volatile long returnedNanos;

		volatile Runnable onFree = () -> {
		};

		Queue(int concurrency) {
			this.concurrency = concurrency;
		}

	}

	private final Map<String, Queue> queues = new ConcurrentHashMap<>();

	private final Map<ClaimGroup, AtomicInteger> groupHeld = new ConcurrentHashMap<>();

	private final Map<String, ClaimGroup> groupByType = new ConcurrentHashMap<>();

	/** A group that refused a poller since slots were last freed: wake every poller on release. */
	private final Map<ClaimGroup, Boolean> refused = new ConcurrentHashMap<>();

	private final LongSupplier nanoTime;

	Slots(Map<String, Integer> concurrencyByQueue, List<ClaimGroup> groups) {
		this(concurrencyByQueue, groups, System::nanoTime);
	}

	Slots(Map<String, Integer> concurrencyByQueue, List<ClaimGroup> groups, LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
		concurrencyByQueue.forEach((queue, concurrency) -> this.queues.put(queue, new Queue(concurrency)));
		for (ClaimGroup group : groups) {
			if (group.limit > 0) {
				this.groupHeld.put(group, new AtomicInteger());
				group.visibilityByType.keySet().forEach((type) -> this.groupByType.put(type, group));
			}
		}
	}

	/** Calls {@code onFree} whenever slots of {@code queue} (or of a group that refused it) come free. */
	void onFree(String queue, Runnable onFree) {
		this.queues.get(queue).onFree = onFree;
	}

	/**
	 * Attempts {@code queue} may claim now: a free handler each, plus its prefetch, within
	 * {@code 2n} reservations plus the prefetch.
	 */
	int free(String queue) {
		return free(this.queues.get(queue));
	}

	private int free(Queue slots) {
		int running = slots.running.get();
		int busy = running + slots.claiming.get();
		if (busy >= slots.concurrency) {
			// every handler is busy, or taken by a claim under way: no claim (ojs-worker-protocol.md §8.2)
			return 0;
		}
		int prefetch = prefetch(slots, running);
		return Math.min(slots.concurrency + prefetch - busy, 2 * slots.concurrency + prefetch - slots.held.get());
	}

	/**
	 * Jobs the queue's busy handlers are expected to reach within the horizon, at most
	 * {@value #PREFETCH_FACTOR}{@code n}; none while its handlers run and none returned within
	 * the horizon (its jobs may have turned long since the average was made).
	 */
	private int prefetch(Queue slots, int running) {
		long handlerNanos = slots.handlerNanos.get();
		if (handlerNanos <= 0
				|| (running > 0 && this.nanoTime.getAsLong() - slots.returnedNanos > PREFETCH_HORIZON_NANOS)) {
			return 0;
		}
		long expected = slots.concurrency * PREFETCH_HORIZON_NANOS / handlerNanos;
		return (int) Math.min((long) PREFETCH_FACTOR * slots.concurrency, expected);
	}

	/** Handlers of {@code queue} running now (claimed jobs waiting for one are not counted). */
	int running(String queue) {
		Queue slots = this.queues.get(queue);
		return (slots != null) ? Math.min(slots.concurrency, slots.running.get()) : 0;
	}

	/** Handlers running now, on every queue. */
	int running() {
		return this.queues.values().stream().mapToInt((slots) -> Math.min(slots.concurrency, slots.running.get())).sum();
	}

	/** Takes up to {@code wanted} of {@code group}'s slots for a claim: all without a limit. */
	int reserve(ClaimGroup group, int wanted) {
		AtomicInteger held = this.groupHeld.get(group);
		if (held == null || wanted <= 0) {
			return Math.max(0, wanted);
		}
		int before = held.getAndUpdate((value) -> value + Math.max(0, Math.min(wanted, group.limit - value)));
		int granted = Math.max(0, Math.min(wanted, group.limit - before));
		if (granted == 0) {
			this.refused.put(group, Boolean.TRUE);
		}
		return granted;
	}

	/**
	 * Takes up to {@code wanted} of {@code queue}'s free attempts ({@link #free}) for a claim
	 * under way: counted as busy and held until the claim's jobs {@link #started} or
	 * {@link #untake} gives back what it did not use. The poller and the completer's refills
	 * ({@link Refills}) take from the same count.
	 */
	int take(String queue, int wanted) {
		Queue slots = this.queues.get(queue);
		synchronized (slots) {
			int granted = Math.max(0, Math.min(wanted, free(slots)));
			slots.claiming.addAndGet(granted);
			slots.held.addAndGet(granted);
			return granted;
		}
	}

	/** {@code count} jobs of a claim that {@link #take took} slots came: their handlers are to run. */
	void started(String queue, int count) {
		Queue slots = this.queues.get(queue);
		slots.running.addAndGet(count);
		slots.claiming.addAndGet(-count);
	}

	/** Gives back {@code count} attempts taken for a claim that did not use them. */
	void untake(String queue, int count) {
		if (count > 0) {
			Queue slots = this.queues.get(queue);
			slots.claiming.addAndGet(-count);
			slots.held.addAndGet(-count);
			slots.onFree.run();
		}
	}

	/** A claim for {@code reserved} slots of {@code group} took {@code claimed} jobs: gives back the rest. */
	void claimed(ClaimGroup group, int reserved, int claimed) {
		releaseGroup(group, reserved - claimed);
	}

	/**
	 * The handler of {@code execution} returned, or the attempt ended before it ran.
	 * @param outcomeQueued whether an outcome waits for the completer, which frees the slot
	 * once written; otherwise the slot is free now
	 * @param handlerNanos how long the handler ran, or {@code -1} when it did not
	 */
	void handlerReturned(LocalAttempt attempt, boolean outcomeQueued, long handlerNanos) {
		Queue slots = this.queues.get(attempt.claimedFrom());
		if (handlerNanos >= 0) {
			slots.handlerNanos.accumulateAndGet(handlerNanos, Slots::average);
			slots.returnedNanos = this.nanoTime.getAsLong();
		}
		slots.running.decrementAndGet();
		if (outcomeQueued) {
			slots.onFree.run();
		}
		else {
			free(attempt);
		}
	}

	/** The attempt's outcome was written, rejected or given up: its slot is free. */
	void free(LocalAttempt attempt) {
		Queue slots = this.queues.get(attempt.claimedFrom());
		slots.held.decrementAndGet();
		ClaimGroup group = this.groupByType.get(attempt.job().type());
		if (group != null) {
			releaseGroup(group, 1);
		}
		slots.onFree.run();
	}

	/** The average handler time with {@code latest} weighed 1/8; at least 1 once a handler returned. */
	private static long average(long average, long latest) {
		return Math.max(1, (average == 0) ? latest : average + (latest - average) / 8);
	}

	private void releaseGroup(ClaimGroup group, int count) {
		AtomicInteger held = this.groupHeld.get(group);
		if (held == null || count <= 0) {
			return;
		}
		held.addAndGet(-count);
		if (this.refused.remove(group) != null) {
			this.queues.values().forEach((slots) -> slots.onFree.run());
		}
	}

}

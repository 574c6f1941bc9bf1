package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.ojs.bench.LatencyRecorder;
import dev.ojs.recurring.RecurringJobListener;

/**
 * What the recurring-job evaluator reports ({@code cron.triggered}, told after each occurrence's
 * transaction committed): how many jobs it enqueued, when the first and the last of them, and
 * each occurrence's lateness (from the occurrence to its job's enqueue).
 */
public final class RecurringJobProbe implements RecurringJobListener {

	private final AtomicLong triggered = new AtomicLong();

	private final AtomicLong firstNanos = new AtomicLong();

	private final AtomicLong lastNanos = new AtomicLong();

	private final LatencyRecorder lateness = new LatencyRecorder();

	@Override
	public void triggered(Triggered event) {
		long now = System.nanoTime();
		this.firstNanos.compareAndSet(0, now);
		this.lastNanos.set(now);
		this.lateness.record(Math.max(0, Duration.between(event.scheduledTime(), event.actualTime()).toNanos() / 1000));
		this.triggered.incrementAndGet();
	}

	public long triggered() {
		return this.triggered.get();
	}

	/** {@link System#nanoTime()} of the first job enqueued, 0 before. */
	public long firstNanos() {
		return this.firstNanos.get();
	}

	/** {@link System#nanoTime()} of the last job enqueued, 0 before. */
	public long lastNanos() {
		return this.lastNanos.get();
	}

	/** Occurrence-to-enqueue lateness of every job, in microseconds. */
	public LatencyRecorder lateness() {
		return this.lateness;
	}

}

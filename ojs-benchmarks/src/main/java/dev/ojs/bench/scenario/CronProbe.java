package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.ojs.bench.LatencyRecorder;
import dev.ojs.cron.CronEventListener;

/**
 * What the recurring-job evaluator reports ({@code cron.triggered}, told after each tick's
 * transaction committed): how many jobs it enqueued, when the first and the last of them, and
 * each tick's lateness (from the tick to its job's enqueue).
 */
public final class CronProbe implements CronEventListener {

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

	/** Tick-to-enqueue lateness of every job, in microseconds. */
	public LatencyRecorder lateness() {
		return this.lateness;
	}

}

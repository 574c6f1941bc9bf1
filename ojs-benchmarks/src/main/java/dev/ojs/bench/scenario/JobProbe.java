package dev.ojs.bench.scenario;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.ojs.bench.CpuUsage;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobListener;

/**
 * What the benchmark handlers and the worker report: handler starts (with enqueue-to-start
 * latency while recording is on), and stored outcomes through the public
 * {@link OjsJobListener} API (a completion is counted once the worker has written it).
 */
public final class JobProbe implements OjsJobListener {

	private final AtomicLong started = new AtomicLong();

	private final AtomicLong completed = new AtomicLong();

	private final AtomicLong retrying = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicLong firstStartNanos = new AtomicLong();

	private final LatencyRecorder latencies = new LatencyRecorder();

	private volatile boolean recording;

	private volatile @Nullable CpuUsage firstStartCpu;

	/** Called by a handler as it starts; {@code enqueuedAtMicros} is from {@link LatencyRecorder#nowMicros()}. */
	public void started(long enqueuedAtMicros) {
		if (this.recording) {
			this.latencies.recordSince(enqueuedAtMicros);
		}
		if (this.started.getAndIncrement() == 0) {
			this.firstStartNanos.compareAndSet(0, System.nanoTime());
			// the CPU a drain's cold part uses counts from here, not from the node's start
			this.firstStartCpu = CpuUsage.now();
		}
	}

	@Override
	public void onCompleted(JobCompletedEvent event) {
		this.completed.incrementAndGet();
	}

	@Override
	public void onRetrying(JobRetryingEvent event) {
		this.retrying.incrementAndGet();
	}

	@Override
	public void onDiscarded(JobDiscardedEvent event) {
		this.failed.incrementAndGet();
	}

	@Override
	public void onDeadLettered(JobDeadLetteredEvent event) {
		this.failed.incrementAndGet();
	}

	public long started() {
		return this.started.get();
	}

	public long completed() {
		return this.completed.get();
	}

	public long retrying() {
		return this.retrying.get();
	}

	/** Discarded or dead-lettered: never expected in a benchmark. */
	public long failed() {
		return this.failed.get();
	}

	/** {@link System#nanoTime()} of the first handler start, 0 before. */
	public long firstStartNanos() {
		return this.firstStartNanos.get();
	}

	/** The CPU reading at the first handler start, {@code null} before. */
	public @Nullable CpuUsage firstStartCpu() {
		return this.firstStartCpu;
	}

	public LatencyRecorder latencies() {
		return this.latencies;
	}

	public void recording(boolean recording) {
		this.recording = recording;
	}

	/**
	 * Waits until {@code counter} reaches {@code target}, polling every 200 µs.
	 * @return {@link System#nanoTime()} when the target was seen
	 * @throws IllegalStateException on timeout, or when a job failed for good
	 */
	public long await(LongSupplier counter, long target, Duration timeout, String what) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (counter.getAsLong() < target) {
			if (this.failed.get() > 0) {
				throw new IllegalStateException(this.failed.get() + " job(s) were discarded while waiting for " + what);
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Timed out after " + timeout + " waiting for " + what + ": "
						+ counter.getAsLong() + " of " + target);
			}
			LockSupport.parkNanos(200_000);
		}
		return System.nanoTime();
	}

}

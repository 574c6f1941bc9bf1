package dev.ojs.bench.peer;

import java.util.concurrent.atomic.AtomicLong;

import dev.ojs.bench.LatencyRecorder;

/**
 * What a peer's handlers report: starts, first start time and, while recording, the
 * enqueue-to-start latency.
 */
public final class PeerProbe {

	private final AtomicLong started = new AtomicLong();

	private final AtomicLong firstStartNanos = new AtomicLong();

	private final LatencyRecorder latencies = new LatencyRecorder();

	private volatile boolean recording;

	/** Called by a handler as it starts. */
	public void started(long enqueuedAtMicros) {
		if (this.recording) {
			this.latencies.recordSince(enqueuedAtMicros);
		}
		if (this.started.getAndIncrement() == 0) {
			this.firstStartNanos.compareAndSet(0, System.nanoTime());
		}
	}

	public long started() {
		return this.started.get();
	}

	public long firstStartNanos() {
		return this.firstStartNanos.get();
	}

	public LatencyRecorder latencies() {
		return this.latencies;
	}

	public void recording(boolean recording) {
		this.recording = recording;
	}

}

package dev.ojs.bench;

import java.time.Instant;
import java.util.Arrays;

/**
 * Collects latency samples (microseconds) from many threads. Latencies are measured
 * between two wall-clock readings, so an enqueue in one process and a start in another (or
 * in a handler thread) compare directly.
 */
public final class LatencyRecorder {

	private long[] samples = new long[1024];

	private int size;

	/** Wall-clock time in microseconds since the epoch, microsecond precision where the OS has it. */
	public static long nowMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
	}

	/** Records the time from {@code startMicros} (a {@link #nowMicros()} reading) until now. */
	public void recordSince(long startMicros) {
		record(Math.max(0, nowMicros() - startMicros));
	}

	public synchronized void record(long micros) {
		if (this.size == this.samples.length) {
			this.samples = Arrays.copyOf(this.samples, this.size * 2);
		}
		this.samples[this.size++] = micros;
	}

	public synchronized int size() {
		return this.size;
	}

	public synchronized void clear() {
		this.size = 0;
	}

	/** The samples so far, which are then cleared (one interval's samples, none lost between the two). */
	public synchronized long[] takeAll() {
		long[] taken = Arrays.copyOf(this.samples, this.size);
		this.size = 0;
		return taken;
	}

	public synchronized long[] toArray() {
		return Arrays.copyOf(this.samples, this.size);
	}

	public LatencySummary summary() {
		return LatencySummary.ofMicros(toArray());
	}

}

package dev.ojs.worker;

import java.time.Duration;

/**
 * Interval arithmetic of the worker's periodic parts.
 */
final class Durations {

	/** The shortest interval a periodic part runs at. */
	static final Duration MIN_INTERVAL = Duration.ofMillis(10);

	private Durations() {
	}

	static Duration atLeast(Duration floor, Duration value) {
		return (value.compareTo(floor) >= 0) ? value : floor;
	}

	static Duration atMost(Duration ceiling, Duration value) {
		return (value.compareTo(ceiling) <= 0) ? value : ceiling;
	}

	/** The time left until {@code deadlineNanos} ({@link System#nanoTime()}), never negative. */
	static Duration until(long deadlineNanos) {
		return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
	}

}

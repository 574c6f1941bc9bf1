package dev.ojs.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A UTC clock that stands still until a test moves it.
 */
public final class MutableClock extends Clock {

	private final AtomicReference<Instant> now;

	public MutableClock(Instant start) {
		this.now = new AtomicReference<>(start);
	}

	/** Starts at the current time, whole milliseconds. */
	public static MutableClock startingNow() {
		return new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
	}

	public void advance(Duration duration) {
		this.now.updateAndGet((instant) -> instant.plus(duration));
	}

	public void set(Instant instant) {
		this.now.set(instant);
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("MutableClock is always UTC");
	}

}

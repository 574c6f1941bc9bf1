package dev.ojs.web.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;

/**
 * The log of subscribers {@link OjsEventStream} dropped for not keeping up: one short line
 * (no stack trace) at most every interval for all drops together, with the number of drops
 * since the previous line.
 */
final class DropLog {

	private final Log logger;

	private final long intervalNanos;

	private final LongSupplier nanoTime;

	private final AtomicLong drops = new AtomicLong();

	private final AtomicLong nextLine;

	DropLog(Log logger, Duration interval, LongSupplier nanoTime) {
		this.logger = logger;
		this.intervalNanos = interval.toNanos();
		this.nanoTime = nanoTime;
		this.nextLine = new AtomicLong(nanoTime.getAsLong());
	}

	/** Counts a dropped subscriber, and logs the count when the interval has passed. */
	void dropped(int bufferSize) {
		this.drops.incrementAndGet();
		long now = this.nanoTime.getAsLong();
		long next = this.nextLine.get();
		if (now - next >= 0 && this.nextLine.compareAndSet(next, now + this.intervalNanos)) {
			long count = this.drops.getAndSet(0);
			this.logger.warn("OJS event stream: dropped " + count + " subscriber(s) that fell " + bufferSize
					+ " events behind (ojs.http.events.buffer-size); at most one such line every "
					+ Duration.ofNanos(this.intervalNanos).toSeconds() + " s");
		}
	}

}

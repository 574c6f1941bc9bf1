package dev.ojs.job;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Job ids: lowercase UUIDv7 strings (RFC 9562 §5.7). The first 48 bits are the Unix time in
 * milliseconds, so ids sort by creation time. Within one JVM they are also strictly
 * increasing: the 12-bit {@code rand_a} field is a counter within the millisecond (RFC 9562
 * §6.2, method 1), which keeps jobs enqueued in one batch in FIFO order when they share a
 * {@code scheduled_at}.
 */
public final class JobIds {

	private static final int COUNTER_BITS = 12;

	/** Last issued {@code unixMillis << 12 | counter}. */
	private static final AtomicLong last = new AtomicLong();

	private JobIds() {
	}

	/** A new lowercase UUIDv7 string, e.g. {@code 01890a5d-ac96-774b-bcce-b302099a8057}. */
	public static String newId() {
		return newUuid().toString();
	}

	/** A new UUIDv7, strictly greater than any issued before by this JVM. */
	public static UUID newUuid() {
		long now = System.currentTimeMillis() << COUNTER_BITS;
		long next;
		long previous;
		do {
			previous = last.get();
			// same (or earlier, clock moved back) millisecond: count on; a counter overflow
			// carries into the timestamp, which stays within a few ms of the clock
			next = Math.max(now, previous + 1);
		}
		while (!last.compareAndSet(previous, next));
		long millis = next >>> COUNTER_BITS;
		long counter = next & ((1L << COUNTER_BITS) - 1);
		// unix_ts_ms (48) | ver = 7 (4) | rand_a (12)
		long msb = (millis << 16) | (0x7L << 12) | counter;
		// var = 0b10 (2) | rand_b (62)
		long lsb = (ThreadLocalRandom.current().nextLong() >>> 2) | (0x2L << 62);
		return new UUID(msb, lsb);
	}

}

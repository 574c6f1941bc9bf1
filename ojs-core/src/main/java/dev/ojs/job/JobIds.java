package dev.ojs.job;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Job ids: lowercase UUIDv7 strings (RFC 9562 §5.7). The first 48 bits are the Unix time in
 * milliseconds of the job's creation, so ids sort by {@code created_at}: the job table needs no
 * index of its own for lists in creation order, the primary key serves them (ojs-core §5.1:
 * UUIDv7 for chronological listing). The next 30 bits ({@code rand_a} and the top 18 bits of
 * {@code rand_b}) are a counter within the millisecond that starts at a random value (RFC 9562
 * §6.2, method 1), so ids issued by one JVM for the same millisecond increase strictly: jobs
 * enqueued in one batch keep their FIFO order when they share a {@code scheduled_at}.
 */
public final class JobIds {

	private static final int COUNTER_BITS = 30;

	private static final int RAND_A_BITS = 12;

	/** Random bits below the counter's part in {@code rand_b}. */
	private static final int RANDOM_BITS = 62 - (COUNTER_BITS - RAND_A_BITS);

	private static final long MAX_COUNTER = (1L << COUNTER_BITS) - 1;

	/** The last millisecond the 48-bit {@code unix_ts_ms} field holds (year 10889). */
	private static final long MAX_MILLIS = (1L << 48) - 1;

	/** Millisecond of the last issued id; guarded by {@code JobIds.class}. */
	private static long lastMillis = -1;

	/** Counter of the last issued id; guarded by {@code JobIds.class}. */
	private static long lastCounter;

	private JobIds() {
	}

	/** A job id as a producer may choose it: a UUIDv7 (RFC 9562), lowercase, in its 36-character form. */
	private static final Pattern ID = Pattern
		.compile("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

	/**
	 * Whether {@code id} can be a job's id: a lowercase UUIDv7 (ojs-core §5.1; L0-ENV-011
	 * refuses a UUIDv4), e.g. {@code 019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f}.
	 */
	public static boolean isId(String id) {
		return ID.matcher(id).matches();
	}

	/** A new lowercase UUIDv7 string for now, e.g. {@code 01890a5d-ac96-774b-bcce-b302099a8057}. */
	public static String newId() {
		return newUuid(System.currentTimeMillis()).toString();
	}

	/** A new lowercase UUIDv7 string whose time is {@code createdAt}'s millisecond. */
	public static String newId(Instant createdAt) {
		return newUuid(millis(createdAt)).toString();
	}

	/**
	 * The least id of {@code at}'s millisecond: ids of jobs created at or after {@code at} sort
	 * at or after it.
	 */
	public static String first(Instant at) {
		return first(millis(at));
	}

	/**
	 * The least id of the millisecond after {@code at}'s: ids of jobs created at or before
	 * {@code at} sort before it.
	 */
	public static String firstAfter(Instant at) {
		return first(millis(at) + 1);
	}

	private static String first(long millis) {
		long clamped = Math.min(millis, MAX_MILLIS);
		return new UUID((clamped << 16) | (0x7L << 12), 0x2L << 62).toString();
	}

	/** {@code at}'s millisecond, within what {@code unix_ts_ms} holds. */
	private static long millis(Instant at) {
		if (at.isBefore(Instant.EPOCH)) {
			return 0;
		}
		return (at.getEpochSecond() >= MAX_MILLIS / 1000) ? MAX_MILLIS : at.toEpochMilli();
	}

	private static UUID newUuid(long millis) {
		long counter;
		synchronized (JobIds.class) {
			if (millis == lastMillis && lastCounter < MAX_COUNTER) {
				counter = ++lastCounter;
			}
			else {
				// a new millisecond (or the clock went back): a random start, the top bit clear
				// so that the counter has room to count on (RFC 9562 §6.2)
				counter = ThreadLocalRandom.current().nextLong(1L << (COUNTER_BITS - 1));
				lastMillis = millis;
				lastCounter = counter;
			}
		}
		// unix_ts_ms (48) | ver = 7 (4) | rand_a (12): the counter's top 12 bits
		long msb = (millis << 16) | (0x7L << 12) | (counter >>> (COUNTER_BITS - RAND_A_BITS));
		// var = 0b10 (2) | rand_b (62): the counter's low 18 bits, then random bits
		long low = counter & ((1L << (COUNTER_BITS - RAND_A_BITS)) - 1);
		long lsb = (0x2L << 62) | (low << RANDOM_BITS)
				| (ThreadLocalRandom.current().nextLong() >>> (64 - RANDOM_BITS));
		return new UUID(msb, lsb);
	}

}

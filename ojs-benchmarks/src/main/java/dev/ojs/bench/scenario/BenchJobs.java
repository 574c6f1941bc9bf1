package dev.ojs.bench.scenario;

import java.util.concurrent.atomic.AtomicInteger;

import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsJob;

/**
 * The benchmark's job handlers. Each job's single argument is its enqueue time in
 * microseconds since the epoch, so the handler measures enqueue-to-start latency.
 */
public class BenchJobs {

	/** A handler that does nothing. */
	public static final String NOOP = "bench.noop";

	/** A handler that sleeps for its job's second argument, in milliseconds. */
	public static final String SLEEP = "bench.sleep";

	/** A handler that fails every job's first attempt, then succeeds. */
	public static final String FAIL_ONCE = "bench.fail_once";

	/** {@link #SLEEP} handlers running now, on every node of this JVM. */
	private static final AtomicInteger sleeping = new AtomicInteger();

	/** The most {@link #SLEEP} handlers that ran at once since {@link #resetMostSleeping}. */
	private static final AtomicInteger mostSleeping = new AtomicInteger();

	private final JobProbe probe;

	public BenchJobs(JobProbe probe) {
		this.probe = probe;
	}

	@OjsJob(type = NOOP)
	public void noop(long enqueuedAtMicros) {
		this.probe.started(enqueuedAtMicros);
	}

	@OjsJob(type = SLEEP)
	public void sleep(long enqueuedAtMicros, long millis) throws InterruptedException {
		this.probe.started(enqueuedAtMicros);
		mostSleeping.accumulateAndGet(sleeping.incrementAndGet(), Math::max);
		try {
			Thread.sleep(millis);
		}
		finally {
			sleeping.decrementAndGet();
		}
	}

	/**
	 * The most {@link #SLEEP} handlers that ran at once, on every node of this JVM, since the
	 * last reset: every start counts, where a sample of the table would miss some and load the
	 * database it measures.
	 */
	static int mostSleeping() {
		return mostSleeping.get();
	}

	static void resetMostSleeping() {
		mostSleeping.set(sleeping.get());
	}

	/** Fail once, retry after 1 ms, no jitter: the handler's policy, so its jobs store none of their own. */
	@OjsJob(type = FAIL_ONCE, maxAttempts = 3, initialInterval = "PT0.001S", jitter = OjsJob.Jitter.DISABLED)
	public void failOnce(long enqueuedAtMicros, JobContext context) {
		this.probe.started(enqueuedAtMicros);
		if (context.attempt() == 1) {
			throw new FirstAttemptFailure();
		}
	}

	/** The planned failure of a first attempt. */
	static final class FirstAttemptFailure extends RuntimeException {

		FirstAttemptFailure() {
			super("first attempt fails by design");
		}

	}

}

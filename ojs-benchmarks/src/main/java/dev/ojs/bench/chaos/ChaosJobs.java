package dev.ojs.bench.chaos;

import java.util.concurrent.ThreadLocalRandom;

import dev.ojs.spring.JobContext;
import dev.ojs.spring.OjsJob;

/**
 * The harness's job handler, run by {@link ChaosWorker} processes. Every execution is
 * recorded: its start row before any work (so a killed execution leaves a row without an
 * end), then its end. Attempts up to {@code failFirst} fail with a transient error.
 */
public class ChaosJobs {

	/** The job type the harness enqueues. */
	public static final String TYPE = "chaos.work";

	private static final long PID = ProcessHandle.current().pid();

	private final ExecutionLog log;

	private final int workMinMillis;

	private final int workMaxMillis;

	public ChaosJobs(ExecutionLog log, int workMinMillis, int workMaxMillis) {
		this.log = log;
		this.workMinMillis = workMinMillis;
		this.workMaxMillis = workMaxMillis;
	}

	@OjsJob(type = TYPE)
	public void work(int index, int failFirst, JobContext context) throws InterruptedException {
		long seq = this.log.started(context.id(), context.attempt(), PID);
		Thread.sleep(ThreadLocalRandom.current().nextInt(this.workMinMillis, this.workMaxMillis + 1));
		boolean fail = context.attempt() <= failFirst;
		this.log.ended(seq, fail ? Execution.FAILED : Execution.OK);
		if (fail) {
			throw new TransientFailure("job " + index + " fails attempt " + context.attempt() + " of its first "
					+ failFirst);
		}
	}

	/** A planned transient failure. */
	static final class TransientFailure extends RuntimeException {

		TransientFailure(String message) {
			super(message);
		}

	}

}

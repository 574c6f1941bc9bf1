package dev.ojs.worker;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;

/**
 * Discards jobs whose {@code expires_at} passed before they ran (ojs-core.md
 * {@code expires_at}; decision 17: {@code discarded} with {@code discarded_at}, no
 * {@code completed_at}): every {@link #INTERVAL}, so expiry is checked at least once a
 * second, up to {@value #MAX_BATCHES} batches of {@value #BATCH} per run. Every node runs
 * one; the store discards each job once. A job that has started is not expired: it runs to
 * its outcome.
 * <p>
 * Expiry is not a failed attempt, so it adds no entry to the error history; listeners are
 * told {@link JobListener#discarded} with an error of type {@value #ERROR_TYPE}.
 */
public final class Expirer {

	static final int BATCH = 100;

	static final int MAX_BATCHES = 10;

	/** Half a second between the end of a run and the next: at least one check a second. */
	static final Duration INTERVAL = Duration.ofMillis(500);

	/** The error type of the discarded event of an expired job. */
	public static final String ERROR_TYPE = "expired";

	/** Detail of the event's error: the job's {@code expires_at}. */
	public static final String EXPIRES_AT = "expires_at";

	/** Detail of the event's error: when the expiry was found. */
	public static final String EXPIRED_AT = "expired_at";

	private static final Log logger = LogFactory.getLog(Expirer.class);

	private final WorkerStore store;

	private final OutcomeEvents events;

	private final BooleanSupplier running;

	private final PeriodicTask task;

	/** @param running whether to go on after a full batch */
	Expirer(WorkerStore store, String nodeId, OutcomeEvents events, BooleanSupplier running) {
		this.store = store;
		this.events = events;
		this.running = running;
		this.task = new PeriodicTask("ojs-expirer-" + nodeId, this::expire, INTERVAL);
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	/** One run: expired jobs in batches until none is left or the run's limit. */
	void expire() {
		List<Job> expired;
		int batches = 0;
		do {
			expired = this.store.expire(BATCH);
			for (Job job : expired) {
				logger.debug("OJS discarded job " + job.id() + ": expires_at " + job.expiresAt() + " passed");
				this.events.discarded(job, error(job));
			}
		}
		while (expired.size() == BATCH && this.running.getAsBoolean() && ++batches < MAX_BATCHES);
	}

	/** The error of the event: details {@code expires_at} and {@code expired_at} (when it was found). */
	static JobError error(Job job) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put(EXPIRES_AT, String.valueOf(job.expiresAt()));
		details.put(EXPIRED_AT, String.valueOf(job.discardedAt()));
		return new JobError(ERROR_TYPE, "expires_at " + job.expiresAt() + " passed before the job ran",
				ErrorCode.DISCARD, details);
	}

}

package dev.ojs.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.retry.JobError;
import dev.ojs.worker.RemoteAttempts;
import dev.ojs.worker.RemoteAttempts.Outcome;

/**
 * The worker protocol of workers outside this process (ojs-worker-protocol.md, the HTTP
 * binding's fetch, ack, nack and heartbeat, §10) on this node's engine ({@link RemoteAttempts}):
 * the same claim, reservation guard, retry policy, error history and events as this node's
 * handlers. Its limits hold for every request: at most {@value #MAX_FETCH} jobs a fetch or
 * heartbeat, worker ids of at most {@value #MAX_WORKER_ID_LENGTH} characters, reservations of at
 * most {@link #MAX_VISIBILITY}.
 */
public class OjsExternalWorkers {

	/** Most jobs one fetch claims, and most jobs one heartbeat extends. */
	public static final int MAX_FETCH = 1000;

	/** Longest worker id. */
	public static final int MAX_WORKER_ID_LENGTH = 200;

	/** Longest reservation a fetch or heartbeat may ask for. */
	public static final Duration MAX_VISIBILITY = Duration.ofDays(1);

	private final RemoteAttempts attempts;

	private final JobStore jobs;

	private final Duration defaultVisibility;

	private JobSizeLimits sizeLimits = JobSizeLimits.DEFAULTS;

	/**
	 * @param attempts this node's engine for attempts run elsewhere
	 * @param jobs the job store
	 * @param defaultVisibility the reservation of a fetch or heartbeat that names none (the
	 * worker's visibility timeout)
	 */
	public OjsExternalWorkers(RemoteAttempts attempts, JobStore jobs, Duration defaultVisibility) {
		this.attempts = Objects.requireNonNull(attempts, "attempts must not be null");
		this.jobs = Objects.requireNonNull(jobs, "jobs must not be null");
		this.defaultVisibility = Objects.requireNonNull(defaultVisibility, "defaultVisibility must not be null");
	}

	/**
	 * FETCH: claims up to {@code count} due jobs from {@code queues}, in the order given,
	 * skipping paused queues; of the given types, or of any type when {@code types} is empty.
	 * @param workerId the worker, or {@code null} for a new id
	 * @param visibility the reservation, or {@code null} for each job's own visibility timeout,
	 * else the default; never past a job's execution timeout
	 */
	public Fetched fetch(@Nullable String workerId, List<String> queues, Collection<String> types,
			@Nullable Duration visibility, int count) {
		String worker = (workerId != null) ? workerId : "worker-" + UUID.randomUUID();
		Duration reservation = visibility(visibility);
		return new Fetched(worker,
				this.attempts.claim(worker, queues, types, reservation, visibility != null, count), reservation);
	}

	/** The most a result may hold ({@link JobSizeLimits#DEFAULTS} unless set). */
	public void setSizeLimits(JobSizeLimits sizeLimits) {
		this.sizeLimits = Objects.requireNonNull(sizeLimits, "sizeLimits must not be null");
	}

	/** ACK: the attempt succeeded; refused unless an external worker (this one, when named) holds the job. */
	public Outcome ack(String id, @Nullable String workerId) {
		return this.attempts.complete(id, workerId);
	}

	/**
	 * ACK with the attempt's result (spec README decision 28), stored with the job and read
	 * back with it; {@code null} for none.
	 * @param resultJson the result as JSON
	 * @throws OjsValidationException when the result is larger than {@link JobSizeLimits#maxResultBytes}
	 */
	public Outcome ack(String id, @Nullable String workerId, @Nullable String resultJson) {
		if (resultJson != null) {
			this.sizeLimits.checkResultJson(resultJson);
		}
		return this.attempts.complete(id, workerId, resultJson);
	}

	/**
	 * ACK of many attempts at once (an extension of the binding): each acked as by
	 * {@link #ack(String, String, String)}, their completions written in one transaction.
	 * @param resultsById the job ids, each with its result as JSON or {@code null}; at most
	 * {@value #MAX_FETCH}
	 * @return the outcome of each id, in the order given
	 * @throws OjsValidationException when a result is larger than {@link JobSizeLimits#maxResultBytes}
	 */
	public Map<String, Outcome> ackAll(Map<String, @Nullable String> resultsById, @Nullable String workerId) {
		resultsById.values().stream().filter(Objects::nonNull).forEach(this.sizeLimits::checkResultJson);
		return this.attempts.completeAll(resultsById, workerId);
	}

	/** The result a job's successful attempt returned, as JSON; empty for none. */
	public Optional<String> result(String id) {
		return this.jobs.result(id);
	}

	/**
	 * FAIL: the attempt failed; retried or discarded per the job's policy, or, when not
	 * {@code retryable}, handled as a non-retryable error.
	 */
	public Outcome nack(String id, @Nullable String workerId, JobError error, boolean retryable) {
		return this.attempts.fail(id, workerId, error, retryable);
	}

	/** Requeue: the held job is available again at once, its attempt not counted. */
	public Outcome requeue(String id, @Nullable String workerId) {
		return this.attempts.requeue(id, workerId);
	}

	/**
	 * BEAT: extends the reservations the worker holds on these jobs.
	 * @param visibility the reservation from now, or {@code null} for the default
	 */
	public Heartbeat heartbeat(String workerId, Collection<String> ids, @Nullable Duration visibility) {
		List<String> extended = this.attempts.heartbeat(workerId, List.copyOf(ids), visibility(visibility));
		List<String> lost = new ArrayList<>(ids);
		lost.removeAll(extended);
		return new Heartbeat(extended, lost);
	}

	/** The job as stored now, after an outcome. */
	public Optional<Job> find(String id) {
		return this.jobs.find(id);
	}

	private Duration visibility(@Nullable Duration visibility) {
		return (visibility != null) ? visibility : this.defaultVisibility;
	}

	/**
	 * What a fetch claimed.
	 *
	 * @param workerId the worker, as given or new
	 * @param jobs the jobs now reserved for it
	 * @param visibility their reservation
	 */
	public record Fetched(String workerId, List<Job> jobs, Duration visibility) {

	}

	/**
	 * What a heartbeat extended.
	 *
	 * @param extended the jobs whose reservation now lasts longer
	 * @param lost the others: no longer held by the worker
	 */
	public record Heartbeat(List<String> extended, List<String> lost) {

	}

}

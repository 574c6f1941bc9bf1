package dev.ojs.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;

/**
 * A snapshot of one stored job.
 * <p>
 * Two timestamps tell when a job entered the queue. {@code createdAt} is when the job was
 * first inserted and never changes. {@code enqueuedAt} is when it was last put in line: it
 * is set at insert (the same instant as {@code createdAt}) and again when a dead letter is
 * retried ({@link JobStore#retryDeadLetter(String)},
 * {@link JobStore#retryDeadLetters(DeadLetterFilter)}), so a replayed job can be told from
 * the original. Retries after a failed attempt do not change it.
 *
 * @param id lowercase UUIDv7
 * @param type dot-namespaced job type
 * @param queue queue name
 * @param argsJson JSON array of arguments
 * @param metaJson JSON object of metadata
 * @param priority higher runs first
 * @param state lifecycle state
 * @param attempt number of started attempts (1-based once started, 0 before)
 * @param maxAttempts the effective {@code max_attempts} as last resolved (at enqueue)
 * @param retryPolicy the retry policy fields given for this job (partial): the handler
 * that runs it supplies the rest (spec §8.1)
 * @param errors error history, oldest first (copied, but a {@link LazyErrorHistory} is kept
 * undecoded)
 * @param deadLetter whether this discarded job is a dead letter
 * @param uniqueKey the unique key, or {@code null}
 * @param scheduledAt when the job is (or was) due: run-at time, or {@code next_retry_at}
 * @param createdAt when it was first inserted; never changes
 * @param enqueuedAt when it was last put in line: at insert, or when last retried from the
 * dead letter queue
 * @param startedAt when its latest attempt started, or {@code null}
 * @param completedAt when it completed, or {@code null}
 * @param discardedAt when it was discarded or dead-lettered, or {@code null}
 * @param lockedBy the worker node holding its reservation, or {@code null}
 * @param lockedUntil when that reservation expires, or {@code null}
 * @param expiresAt when the job expires unless it has started: past it, a job still waiting
 * to run is discarded (ojs-core.md {@code expires_at}); {@code null} for never
 * @param timeout its own execution timeout, or {@code null}: an attempt fails with type
 * {@code timeout} once it has run this long ({@link #deadline()})
 * @param visibilityTimeout its own reservation for claims that name none, or {@code null}
 * @param workflowId the workflow the job is a step or callback of, or {@code null} for a plain job
 * @param workflowPlace its type, role and step in that workflow, or {@code null} for a plain job
 * @param parentResultsJson the JSON array of the results it was given by its workflow (a chain's
 * earlier steps, a batch's jobs), or {@code null}
 * @param sequenceKey the key of its sequence (jobs with one key run one at a time, in enqueue
 * order), or {@code null}
 */
public record Job(String id, String type, String queue, String argsJson, String metaJson, int priority,
		JobState state, int attempt, int maxAttempts, RetryPolicy retryPolicy, List<ErrorEntry> errors,
		boolean deadLetter, @Nullable String uniqueKey, Instant scheduledAt, Instant createdAt, Instant enqueuedAt,
		@Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt,
		@Nullable String lockedBy, @Nullable Instant lockedUntil, @Nullable Instant expiresAt,
		@Nullable Duration timeout, @Nullable Duration visibilityTimeout, @Nullable String workflowId,
		@Nullable WorkflowPlace workflowPlace, @Nullable String parentResultsJson, @Nullable String sequenceKey) {

	public Job {
		errors = LazyErrorHistory.copyOf(errors);
	}

	/** A job outside any workflow. */
	public Job(String id, String type, String queue, String argsJson, String metaJson, int priority, JobState state,
			int attempt, int maxAttempts, RetryPolicy retryPolicy, List<ErrorEntry> errors, boolean deadLetter,
			@Nullable String uniqueKey, Instant scheduledAt, Instant createdAt, Instant enqueuedAt,
			@Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt,
			@Nullable String lockedBy, @Nullable Instant lockedUntil, @Nullable Instant expiresAt,
			@Nullable Duration timeout, @Nullable Duration visibilityTimeout) {
		this(id, type, queue, argsJson, metaJson, priority, state, attempt, maxAttempts, retryPolicy, errors,
				deadLetter, uniqueKey, scheduledAt, createdAt, enqueuedAt, startedAt, completedAt, discardedAt, lockedBy,
				lockedUntil, expiresAt, timeout, visibilityTimeout, null, null, null, null);
	}

	/** A job without timeouts of its own. */
	public Job(String id, String type, String queue, String argsJson, String metaJson, int priority, JobState state,
			int attempt, int maxAttempts, RetryPolicy retryPolicy, List<ErrorEntry> errors, boolean deadLetter,
			@Nullable String uniqueKey, Instant scheduledAt, Instant createdAt, Instant enqueuedAt,
			@Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt,
			@Nullable String lockedBy, @Nullable Instant lockedUntil, @Nullable Instant expiresAt) {
		this(id, type, queue, argsJson, metaJson, priority, state, attempt, maxAttempts, retryPolicy, errors,
				deadLetter, uniqueKey, scheduledAt, createdAt, enqueuedAt, startedAt, completedAt, discardedAt, lockedBy,
				lockedUntil, expiresAt, null, null);
	}

	/** A job that never expires. */
	public Job(String id, String type, String queue, String argsJson, String metaJson, int priority, JobState state,
			int attempt, int maxAttempts, RetryPolicy retryPolicy, List<ErrorEntry> errors, boolean deadLetter,
			@Nullable String uniqueKey, Instant scheduledAt, Instant createdAt, Instant enqueuedAt,
			@Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt,
			@Nullable String lockedBy, @Nullable Instant lockedUntil) {
		this(id, type, queue, argsJson, metaJson, priority, state, attempt, maxAttempts, retryPolicy, errors,
				deadLetter, uniqueKey, scheduledAt, createdAt, enqueuedAt, startedAt, completedAt, discardedAt, lockedBy,
				lockedUntil, null);
	}

	/**
	 * When the current attempt's execution timeout ends: its start plus the job's own
	 * {@link #timeout()}; {@code null} when it has none or is not running.
	 */
	public @Nullable Instant deadline() {
		return (this.timeout != null && this.startedAt != null) ? Timestamps.plus(this.startedAt, this.timeout) : null;
	}

	/** {@code next_retry_at} (spec §10): the due time while retryable, otherwise {@code null}. */
	public @Nullable Instant nextRetryAt() {
		return (this.state == JobState.RETRYABLE) ? this.scheduledAt : null;
	}

	/**
	 * The state a reader sees at {@code now}: a scheduled job whose time has come reads
	 * {@code available} (L2-DEL-003) though no worker has claimed it yet; every other state
	 * as stored.
	 */
	public JobState stateAt(Instant now) {
		return (this.state == JobState.SCHEDULED && !this.scheduledAt.isAfter(now)) ? JobState.AVAILABLE : this.state;
	}

	/**
	 * This job as a reader sees it at {@code now}: its state is {@link #stateAt(Instant)},
	 * every other field as stored. The services hand jobs to every view (HTTP binding, Admin
	 * API, dashboard, Java API) read this way, at their store's clock.
	 */
	public Job at(Instant now) {
		JobState seen = stateAt(now);
		return (seen == this.state) ? this
				: new Job(this.id, this.type, this.queue, this.argsJson, this.metaJson, this.priority, seen, this.attempt,
						this.maxAttempts, this.retryPolicy, this.errors, this.deadLetter, this.uniqueKey, this.scheduledAt,
						this.createdAt, this.enqueuedAt, this.startedAt, this.completedAt, this.discardedAt, this.lockedBy,
						this.lockedUntil, this.expiresAt, this.timeout, this.visibilityTimeout, this.workflowId,
						this.workflowPlace, this.parentResultsJson, this.sequenceKey);
	}

	/**
	 * The retry delay that came before the current attempt: from the last failure to the time
	 * the retry was due (L1-RTR-001), or {@code null} for a first attempt or a job not running.
	 */
	public @Nullable Duration retryDelay() {
		ErrorEntry last = lastError();
		if (this.state != JobState.ACTIVE || last == null || last.attempt() != this.attempt - 1) {
			return null;
		}
		Duration delay = Duration.between(last.timestamp(), this.scheduledAt);
		return delay.isNegative() ? Duration.ZERO : delay;
	}

	/** The most recent error, or {@code null}. */
	public @Nullable ErrorEntry lastError() {
		return this.errors.isEmpty() ? null : this.errors.get(this.errors.size() - 1);
	}

	/**
	 * The error of the job's current view: the most recent error, or {@code null} once the
	 * job completed (a success leaves no error; the history keeps them).
	 */
	public @Nullable ErrorEntry currentError() {
		return (this.state == JobState.COMPLETED) ? null : lastError();
	}

}

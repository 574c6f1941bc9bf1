package dev.ojs.job;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;

/**
 * A job to insert. Its retry policy holds only the fields given for this job; the rest
 * comes from the handler that runs it (spec §8.1). The producer has validated them (RET-16).
 *
 * @param type dot-namespaced job type
 * @param queue queue name; {@code null} means {@value #DEFAULT_QUEUE}
 * @param priority higher runs first
 * @param argsJson JSON array of arguments
 * @param metaJson JSON object of metadata
 * @param retryPolicy the retry policy fields given for this job (partial), or {@code null}
 * for none
 * @param runAt when the job becomes due; {@code null} means now
 * @param uniqueKey optional unique key, unique per type among live jobs: a live job of the
 * same type with the same key is returned instead
 * @param maxAttempts the effective {@code max_attempts} as the producer resolved it (for
 * display: the handler that runs the job decides)
 * @param pending staged in state {@code pending} until activated (ojs-core §6)
 * @param expiresAt when the job expires unless it has started (discarded then), or
 * {@code null} for never
 * @param id the job's id as its producer chose it (a lowercase UUID), or {@code null} for a
 * new UUIDv7: a job with this id that exists already is returned instead of inserting one
 * @param uniqueScope which holder of {@code uniqueKey} counts as a duplicate, or {@code null}
 * for every live one
 * @param timeout the job's execution timeout: an attempt still running this long after it
 * started fails with type {@code timeout}; {@code null} for the handler's, else none
 * @param visibilityTimeout the reservation a claim gives the job when the claim names none,
 * or {@code null} for the worker's
 * @param concurrencyKey the key its type's limit per key counts it under (at most so many
 * jobs of the type with one key run at once), or {@code null} for none
 * @param sequenceKey the key of its sequence (jobs with one key run one at a time, in enqueue
 * order), or {@code null} for none
 * @param workflowId the id of the workflow the job belongs to, or {@code null} for a plain job:
 * the insert stores it with its {@code workflowPlace}, so the workflow's creation writes no
 * job row again
 * @param workflowPlace its type, role and step in that workflow; given exactly when
 * {@code workflowId} is
 */
public record NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
		@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
		boolean pending, @Nullable Instant expiresAt, @Nullable String id, @Nullable UniqueScope uniqueScope,
		@Nullable Duration timeout, @Nullable Duration visibilityTimeout, @Nullable String concurrencyKey,
		@Nullable String sequenceKey, @Nullable String workflowId, @Nullable WorkflowPlace workflowPlace) {

	public NewJob {
		if ((workflowId == null) != (workflowPlace == null)) {
			throw new IllegalArgumentException("A job of a workflow has both a workflow id and a place, got "
					+ workflowId + " and " + workflowPlace);
		}
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("Job timeout must be positive, got " + timeout);
		}
		if (visibilityTimeout != null && (visibilityTimeout.isNegative() || visibilityTimeout.isZero())) {
			throw new IllegalArgumentException("Job visibility timeout must be positive, got " + visibilityTimeout);
		}
	}

	/** A job that belongs to no workflow. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending, @Nullable Instant expiresAt, @Nullable String id, @Nullable UniqueScope uniqueScope,
			@Nullable Duration timeout, @Nullable Duration visibilityTimeout, @Nullable String concurrencyKey,
			@Nullable String sequenceKey) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, expiresAt,
				id, uniqueScope, timeout, visibilityTimeout, concurrencyKey, sequenceKey, null, null);
	}

	/** A job without a sequence key. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending, @Nullable Instant expiresAt, @Nullable String id, @Nullable UniqueScope uniqueScope,
			@Nullable Duration timeout, @Nullable Duration visibilityTimeout, @Nullable String concurrencyKey) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, expiresAt,
				id, uniqueScope, timeout, visibilityTimeout, concurrencyKey, null);
	}

	/** A job without a concurrency key. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending, @Nullable Instant expiresAt, @Nullable String id, @Nullable UniqueScope uniqueScope,
			@Nullable Duration timeout, @Nullable Duration visibilityTimeout) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, expiresAt,
				id, uniqueScope, timeout, visibilityTimeout, null, null);
	}

	/** A job without timeouts of its own. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending, @Nullable Instant expiresAt, @Nullable String id, @Nullable UniqueScope uniqueScope) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, expiresAt,
				id, uniqueScope, null, null);
	}

	/** A job whose id the store assigns. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending, @Nullable Instant expiresAt) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, expiresAt,
				null, null);
	}

	/** A job that never expires. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts,
			boolean pending) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, pending, null);
	}

	/** A job that is not {@code pending}. */
	public NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
			@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey, int maxAttempts) {
		this(type, queue, priority, argsJson, metaJson, retryPolicy, runAt, uniqueKey, maxAttempts, false);
	}

	/**
	 * This job as a job of the workflow {@code workflowId} at {@code place}, with an id the
	 * store generates (a workflow's jobs are new jobs, never ones stored already).
	 */
	public NewJob inWorkflow(String workflowId, WorkflowPlace place) {
		return new NewJob(this.type, this.queue, this.priority, this.argsJson, this.metaJson, this.retryPolicy,
				this.runAt, this.uniqueKey, this.maxAttempts, this.pending, this.expiresAt, null, this.uniqueScope,
				this.timeout, this.visibilityTimeout, this.concurrencyKey, this.sequenceKey, workflowId, place);
	}

	/** The queue of a job enqueued without one whose handler names none. */
	public static final String DEFAULT_QUEUE = "default";

}

package dev.ojs.jdbc;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.job.Timestamps;
import dev.ojs.job.UniqueScope;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.retry.RetryPolicy;

/**
 * One job row to insert; it is enqueued when it is created ({@code enqueued_at = created_at}).
 * A job of a workflow carries its workflow's id and its place in it, written by the insert.
 */
record InsertRow(String id, String type, String queue, String args, String meta, int priority, JobState state,
		int maxAttempts, String policyJson, @Nullable String uniqueKey, Instant scheduledAt, Instant createdAt,
		@Nullable Instant expiresAt, boolean chosenId, @Nullable UniqueScope uniqueScope, @Nullable Long timeoutMs,
		@Nullable Long visibilityTimeoutMs, @Nullable String concurrencyKey, @Nullable String sequenceKey,
		@Nullable String workflowId, @Nullable WorkflowPlace workflowPlace) {

	/** Length of the {@code type}, {@code queue} and {@code unique_key} columns. */
	static final int MAX_NAME_LENGTH = 255;

	/**
	 * The row of a new job created at {@code now}: held ({@code pending}), scheduled for its
	 * {@code runAt}, or available at once.
	 * @throws IllegalArgumentException when the job's type is blank, its type, queue or unique
	 * key is longer than {@value #MAX_NAME_LENGTH} characters, or its {@code runAt} or
	 * {@code expiresAt} is after {@link Timestamps#MAX}
	 */
	static InsertRow of(NewJob job, Instant now) {
		if (job.type() == null || job.type().isBlank()) {
			throw new IllegalArgumentException("Job type must not be blank");
		}
		String queue = (job.queue() != null) ? job.queue() : NewJob.DEFAULT_QUEUE;
		checkLength("type", job.type());
		checkLength("queue", queue);
		checkLength("unique key", job.uniqueKey());
		checkLength("concurrency key", job.concurrencyKey());
		checkLength("sequence key", job.sequenceKey());
		if (job.runAt() != null && job.runAt().isAfter(Timestamps.MAX)) {
			throw new IllegalArgumentException(
					"Job runAt must not be after " + Timestamps.MAX + ", got " + job.runAt() + " (job type " + job.type() + ")");
		}
		if (job.expiresAt() != null && job.expiresAt().isAfter(Timestamps.MAX)) {
			throw new IllegalArgumentException("Job expiresAt must not be after " + Timestamps.MAX + ", got "
					+ job.expiresAt() + " (job type " + job.type() + ")");
		}
		RetryPolicy policy = job.retryPolicy();
		Instant runAt = (job.runAt() != null) ? job.runAt().truncatedTo(ChronoUnit.MICROS) : now;
		JobState state = job.pending() ? JobState.PENDING : runAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
		if (job.id() != null && !JobIds.isId(job.id())) {
			throw new IllegalArgumentException("Job id must be a lowercase UUID, got: " + job.id());
		}
		return new InsertRow((job.id() != null) ? job.id() : JobIds.newId(now), job.type(), queue,
				(job.argsJson() != null) ? job.argsJson() : "[]", (job.metaJson() != null) ? job.metaJson() : "{}",
				job.priority(), state, job.maxAttempts(), (policy != null) ? policy.toJson() : "{}",
				job.uniqueKey(), state != JobState.AVAILABLE ? runAt : now, now,
				(job.expiresAt() != null) ? job.expiresAt().truncatedTo(ChronoUnit.MICROS) : null, job.id() != null,
				(job.uniqueKey() != null) ? job.uniqueScope() : null,
				(job.timeout() != null) ? job.timeout().toMillis() : null,
				(job.visibilityTimeout() != null) ? job.visibilityTimeout().toMillis() : null, job.concurrencyKey(),
				job.sequenceKey(), job.workflowId(), job.workflowPlace());
	}

	/** Whether the row is a job of a workflow, whose insert writes the workflow columns too. */
	boolean placed() {
		return this.workflowId != null;
	}

	/** Whether one of the rows is a job of a workflow. */
	static boolean anyPlaced(List<InsertRow> rows) {
		for (InsertRow row : rows) {
			if (row.placed()) {
				return true;
			}
		}
		return false;
	}

	/** Rejects a name longer than its column ({@value #MAX_NAME_LENGTH} characters). */
	static void checkLength(String what, @Nullable String value) {
		if (value != null && value.length() > MAX_NAME_LENGTH) {
			throw new IllegalArgumentException("Job " + what + " must have at most " + MAX_NAME_LENGTH
					+ " characters, got " + value.length() + ": " + value.substring(0, 40) + "...");
		}
	}

}

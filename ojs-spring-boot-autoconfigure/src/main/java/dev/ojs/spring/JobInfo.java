package dev.ojs.spring;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonRawValue;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonSerialize;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.LazyErrorHistory;
import dev.ojs.json.JobJson;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * What an application sees of a stored job. Serialised with Jackson, the state is its
 * lowercase spec value ({@code "completed"}, as the actuator shows it) and the policy,
 * arguments and metadata are written as JSON values, not strings ({@link JobJson} holds the
 * serializers).
 *
 * @param id lowercase UUIDv7
 * @param type the job type
 * @param queue the queue
 * @param priority higher runs first
 * @param state lifecycle state as read at the store's clock ({@link Job#at(Instant)}): a
 * scheduled job that is due reads {@code available}, as on every other surface
 * @param attempt number of started attempts (0 before the first)
 * @param maxAttempts the effective policy's {@code max_attempts}
 * @param retryPolicy the effective retry policy (spec §8.1): the job's own fields over its
 * handler's policy
 * @param retryPolicySources for each field of {@code retryPolicy}, the layer it came from:
 * {@code spec}, {@code application} ({@code ojs.retry.*} of the handler's application),
 * {@code handler} ({@code @OjsJob}) or {@code job}
 * @param errors error history, oldest first (spec §10.1)
 * @param deadLetter whether the job is in the dead letter queue
 * @param nextRetryAt when a retryable job runs next, else {@code null}
 * @param argsJson the JSON {@code args} array
 * @param metaJson the JSON metadata object
 * @param uniqueKey the unique key, or {@code null}
 * @param scheduledAt when the job is (or was) due
 * @param createdAt when it was first inserted; never changes
 * @param enqueuedAt when it was last put in line: at insert (same as {@code createdAt}), or
 * when last retried from the dead letter queue
 * @param startedAt when its latest attempt started, or {@code null}
 * @param completedAt when it completed, or {@code null}
 * @param discardedAt when it was discarded, dead-lettered or cancelled, or {@code null}
 * @param resultJson the JSON result its successful attempt returned (spec README decision 28),
 * or {@code null}
 */
public record JobInfo(String id, String type, String queue, int priority,
		@JsonSerialize(using = JobJson.StateSerializer.class) JobState state, int attempt, int maxAttempts,
		@JsonSerialize(using = JobJson.PolicySerializer.class) RetryPolicy retryPolicy,
		Map<String, String> retryPolicySources,
		List<ErrorEntry> errors, boolean deadLetter, @Nullable Instant nextRetryAt, @JsonRawValue String argsJson,
		@JsonRawValue String metaJson, @Nullable String uniqueKey, Instant scheduledAt, Instant createdAt,
		Instant enqueuedAt, @Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt,
		@JsonRawValue @Nullable String resultJson) {

	public JobInfo {
		errors = LazyErrorHistory.copyOf(errors);
	}

	/** A job without a result. */
	public JobInfo(String id, String type, String queue, int priority, JobState state, int attempt, int maxAttempts,
			RetryPolicy retryPolicy, Map<String, String> retryPolicySources, List<ErrorEntry> errors,
			boolean deadLetter, @Nullable Instant nextRetryAt, String argsJson, String metaJson,
			@Nullable String uniqueKey, Instant scheduledAt, Instant createdAt, Instant enqueuedAt,
			@Nullable Instant startedAt, @Nullable Instant completedAt, @Nullable Instant discardedAt) {
		this(id, type, queue, priority, state, attempt, maxAttempts, retryPolicy, retryPolicySources, errors,
				deadLetter, nextRetryAt, argsJson, metaJson, uniqueKey, scheduledAt, createdAt, enqueuedAt, startedAt,
				completedAt, discardedAt, null);
	}

	/** The view of a stored job whose handler is not known here: its own fields over the spec defaults. */
	public static JobInfo of(Job job) {
		return of(job, RetryPolicyLayers.spec().over(RetryPolicyLayers.JOB, job.retryPolicy()));
	}

	/** The view of a stored job whose policy is merged from {@code layers}. */
	public static JobInfo of(Job job, RetryPolicyLayers layers) {
		return of(job, layers, null);
	}

	/** The view of a stored job whose policy is merged from {@code layers}, with its result as JSON. */
	public static JobInfo of(Job job, RetryPolicyLayers layers, @Nullable String resultJson) {
		RetryPolicy policy = layers.effective();
		Integer maxAttempts = policy.maxAttempts();
		return new JobInfo(job.id(), job.type(), job.queue(), job.priority(), job.state(), job.attempt(),
				(maxAttempts != null) ? maxAttempts : job.maxAttempts(), policy, layers.sources(), job.errors(),
				job.deadLetter(), job.nextRetryAt(), job.argsJson(), job.metaJson(), job.uniqueKey(), job.scheduledAt(),
				job.createdAt(), job.enqueuedAt(), job.startedAt(), job.completedAt(), job.discardedAt(), resultJson);
	}

	/**
	 * The error of the job's current view: the most recent error, or {@code null} once the
	 * job completed (a success leaves no error; {@link #errors()} keeps them).
	 */
	public @Nullable ErrorEntry lastError() {
		return (this.state == JobState.COMPLETED || this.errors.isEmpty()) ? null
				: this.errors.get(this.errors.size() - 1);
	}

}

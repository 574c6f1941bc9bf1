package dev.ojs.job;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;

/**
 * A job to insert. The retry policy is the <em>effective</em> one: already merged over
 * handler and application defaults and validated (RET-16), so the store never sees an
 * invalid policy.
 *
 * @param type dot-namespaced job type
 * @param queue queue name; {@code null} means {@value #DEFAULT_QUEUE}
 * @param priority higher runs first
 * @param argsJson JSON array of arguments
 * @param metaJson JSON object of metadata
 * @param retryPolicy effective retry policy
 * @param runAt when the job becomes due; {@code null} means now
 * @param uniqueKey optional unique key, unique per type among live jobs: a live job of the
 * same type with the same key is returned instead
 */
public record NewJob(String type, @Nullable String queue, int priority, String argsJson, String metaJson,
		@Nullable RetryPolicy retryPolicy, @Nullable Instant runAt, @Nullable String uniqueKey) {

	/** The queue of a job enqueued without one whose handler names none. */
	public static final String DEFAULT_QUEUE = "default";

}

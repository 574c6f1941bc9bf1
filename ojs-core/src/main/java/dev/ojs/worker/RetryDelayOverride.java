package dev.ojs.worker;

import java.time.Duration;
import java.util.Optional;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * Optionally replaces the policy's backoff delay for a failed attempt. The worker still caps
 * the returned delay at the policy's {@code max_interval} (RET-04/06). Empty falls back to
 * the policy.
 */
@FunctionalInterface
public interface RetryDelayOverride {

	RetryDelayOverride NONE = (job, error) -> Optional.empty();

	/** @param job the job whose attempt {@link Job#attempt()} just failed */
	Optional<Duration> delay(Job job, JobError error);

}

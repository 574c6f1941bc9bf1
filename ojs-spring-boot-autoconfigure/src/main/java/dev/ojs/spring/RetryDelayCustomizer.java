package dev.ojs.spring;

import java.time.Duration;
import java.util.Optional;

import dev.ojs.retry.JobError;

/**
 * Optional SPI: declare a bean to choose the delay before a retry instead of the policy's
 * backoff formula, for example to honour a {@code Retry-After} header. The result is still
 * capped at the policy's {@code max_interval} (RET-04/06). Several beans are asked in order;
 * the first non-empty answer wins, and when all are empty the policy's backoff applies.
 * Only asked when the job will be retried.
 */
@FunctionalInterface
public interface RetryDelayCustomizer {

	/**
	 * @param type the job type
	 * @param attempt the 1-based attempt that just failed
	 * @param error the error it failed with
	 * @return the delay before the next attempt, or empty to use the policy
	 */
	Optional<Duration> delay(String type, int attempt, JobError error);

}

package dev.ojs.spring;

import java.util.Optional;

import dev.ojs.retry.JobError;

/**
 * Optional SPI: declare a bean to override how exceptions escaping {@link OjsJob @OjsJob}
 * handlers are classified, for every job type. It sees the error the default rules produced
 * (see {@link OjsJob}) and may replace it; several beans are asked in order and the first
 * non-empty answer wins.
 */
@FunctionalInterface
public interface JobErrorClassifier {

	/**
	 * @param job the job whose attempt failed ({@link JobInfo#attempt()} is that attempt)
	 * @param failure the exception the handler threw (already unwrapped from reflection)
	 * @param classified the error the default rules produced
	 * @return the error to record instead, or empty to keep {@code classified}
	 */
	Optional<JobError> classify(JobInfo job, Throwable failure, JobError classified);

}

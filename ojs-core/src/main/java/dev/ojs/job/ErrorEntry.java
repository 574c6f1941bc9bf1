package dev.ojs.job;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;

/**
 * One entry of a job's error history (spec §10.1): the failed attempt, the error and when
 * it happened.
 *
 * @param attempt the 1-based attempt that failed
 * @param type dot-namespaced error type
 * @param message human-readable message
 * @param code the handler response code
 * @param timestamp when the failure was recorded
 * @param details structured details (never {@code null}; values may be {@code null})
 */
public record ErrorEntry(int attempt, String type, String message, ErrorCode code, Instant timestamp,
		Map<String, @Nullable Object> details) {

	public ErrorEntry {
		details = JobError.copyOfDetails(details);
	}

}

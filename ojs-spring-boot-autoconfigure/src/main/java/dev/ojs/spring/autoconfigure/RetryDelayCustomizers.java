package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.spring.RetryDelayCustomizer;
import dev.ojs.worker.RetryDelayOverride;

/**
 * Adapts the {@link RetryDelayCustomizer} beans to the worker's {@link RetryDelayOverride}:
 * the first non-empty delay wins. The worker caps it at the policy's {@code max_interval}
 * (RET-04/06).
 */
final class RetryDelayCustomizers implements RetryDelayOverride {

	private final List<RetryDelayCustomizer> customizers;

	private RetryDelayCustomizers(List<RetryDelayCustomizer> customizers) {
		this.customizers = List.copyOf(customizers);
	}

	static RetryDelayOverride of(List<RetryDelayCustomizer> customizers) {
		return customizers.isEmpty() ? RetryDelayOverride.NONE : new RetryDelayCustomizers(customizers);
	}

	@Override
	public Optional<Duration> delay(Job job, JobError error) {
		for (RetryDelayCustomizer customizer : this.customizers) {
			Optional<Duration> delay = customizer.delay(job.type(), job.attempt(), error);
			if (delay != null && delay.isPresent()) {
				return delay;
			}
		}
		return Optional.empty();
	}

}

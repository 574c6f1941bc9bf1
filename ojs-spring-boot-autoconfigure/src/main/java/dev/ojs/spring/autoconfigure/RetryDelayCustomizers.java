package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.spring.RetryDelayCustomizer;
import dev.ojs.worker.RetryDelayOverride;

/**
 * Adapts the {@link RetryDelayCustomizer} beans to the worker's {@link RetryDelayOverride}:
 * the first non-empty delay wins. The worker caps it at the policy's {@code max_interval}
 * (RET-04/06). A customizer that throws is logged and skipped.
 */
final class RetryDelayCustomizers implements RetryDelayOverride {

	private static final Log logger = LogFactory.getLog(RetryDelayCustomizers.class);

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
			try {
				Optional<Duration> delay = customizer.delay(job.type(), job.attempt(), error);
				if (delay != null && delay.isPresent()) {
					return delay;
				}
			}
			catch (RuntimeException ex) {
				logger.warn("RetryDelayCustomizer " + customizer + " failed on job " + job.id()
						+ "; using the policy's backoff", ex);
			}
		}
		return Optional.empty();
	}

}

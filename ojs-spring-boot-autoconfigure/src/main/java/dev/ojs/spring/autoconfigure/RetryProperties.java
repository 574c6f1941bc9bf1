package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;

/**
 * Application-wide default retry policy (spec section 2). Unset fields inherit the spec
 * defaults (section 8); '@OjsJob' attributes and per-enqueue options override these.
 */
public class RetryProperties {

	/**
	 * Total number of attempts including the first (spec default 3; 0 and 1 mean no
	 * retry).
	 */
	private @Nullable Integer maxAttempts;

	/**
	 * Delay before the first retry (spec default 1s).
	 */
	private @Nullable Duration initialInterval;

	/**
	 * Multiplier of successive delays, at least 1.0 (spec default 2.0).
	 */
	private @Nullable Double backoffCoefficient;

	/**
	 * Cap on any computed delay (spec default 5m).
	 */
	private @Nullable Duration maxInterval;

	/**
	 * Whether to randomise delays by a factor in [0.5, 1.5) (spec default true).
	 */
	private @Nullable Boolean jitter;

	/**
	 * Error types that are never retried: exact, or a prefix ending in '.*' (spec
	 * section 6).
	 */
	private @Nullable List<String> nonRetryableErrors;

	/**
	 * What happens to a job whose attempts are exhausted: 'discard' (spec default) or
	 * 'dead-letter'.
	 */
	private @Nullable OnExhaustion onExhaustion;

	/**
	 * Backoff formula: 'none', 'linear', 'exponential' (default) or 'polynomial'.
	 */
	private @Nullable BackoffStrategy backoffStrategy;

	public @Nullable Integer getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(@Nullable Integer maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public @Nullable Duration getInitialInterval() {
		return this.initialInterval;
	}

	public void setInitialInterval(@Nullable Duration initialInterval) {
		this.initialInterval = initialInterval;
	}

	public @Nullable Double getBackoffCoefficient() {
		return this.backoffCoefficient;
	}

	public void setBackoffCoefficient(@Nullable Double backoffCoefficient) {
		this.backoffCoefficient = backoffCoefficient;
	}

	public @Nullable Duration getMaxInterval() {
		return this.maxInterval;
	}

	public void setMaxInterval(@Nullable Duration maxInterval) {
		this.maxInterval = maxInterval;
	}

	public @Nullable Boolean getJitter() {
		return this.jitter;
	}

	public void setJitter(@Nullable Boolean jitter) {
		this.jitter = jitter;
	}

	public @Nullable List<String> getNonRetryableErrors() {
		return this.nonRetryableErrors;
	}

	public void setNonRetryableErrors(@Nullable List<String> nonRetryableErrors) {
		this.nonRetryableErrors = nonRetryableErrors;
	}

	public @Nullable OnExhaustion getOnExhaustion() {
		return this.onExhaustion;
	}

	public void setOnExhaustion(@Nullable OnExhaustion onExhaustion) {
		this.onExhaustion = onExhaustion;
	}

	public @Nullable BackoffStrategy getBackoffStrategy() {
		return this.backoffStrategy;
	}

	public void setBackoffStrategy(@Nullable BackoffStrategy backoffStrategy) {
		this.backoffStrategy = backoffStrategy;
	}

	/** The partial policy these properties set (unset fields stay unset). */
	public RetryPolicy toPolicy() {
		// the builder leaves a null field unset and copies the list
		return RetryPolicy.builder()
			.maxAttempts(this.maxAttempts)
			.initialInterval(this.initialInterval)
			.backoffCoefficient(this.backoffCoefficient)
			.maxInterval(this.maxInterval)
			.jitter(this.jitter)
			.nonRetryableErrors(this.nonRetryableErrors)
			.onExhaustion(this.onExhaustion)
			.backoffStrategy(this.backoffStrategy)
			.build();
	}

}

package dev.ojs.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

import org.jspecify.annotations.Nullable;

/**
 * An OJS retry policy (spec §2), immutable.
 * <p>
 * A policy may be <em>partial</em>: every field may be unset ({@code null}), meaning
 * "inherit". Partial policies are layered with {@link #mergedOver(RetryPolicy)} (spec
 * defaults &lt; application defaults &lt; handler &lt; per-job) and completed with
 * {@link #effective()}, which merges over {@link #DEFAULT} (§8.1, RET-10). The delay and
 * decision methods require a {@link #isComplete() complete} policy.
 * <p>
 * Every instance is valid: each set field satisfies the §11.1 rules, and when both
 * intervals are set, {@code max_interval >= initial_interval}. Invalid input raises
 * {@link RetryPolicyValidationException}, whether it comes from {@link #builder()},
 * {@link #parse(String)} or a merge.
 * <p>
 * Besides the seven spec fields the policy carries the {@code backoff_strategy} extension
 * field (§3, default {@link BackoffStrategy#EXPONENTIAL}).
 */
public final class RetryPolicy {

	/**
	 * The default policy of spec §8 (RET-09), with {@code backoff_strategy} exponential. Job
	 * stores keep each job's policy relative to it ({@link #toJsonOmittingDefaults()}), so a
	 * change here would change the policy of every job already stored.
	 */
	public static final RetryPolicy DEFAULT = builder().maxAttempts(3)
		.initialInterval(Duration.ofSeconds(1))
		.backoffCoefficient(2.0)
		.maxInterval(Duration.ofMinutes(5))
		.jitter(true)
		.nonRetryableErrors(List.of())
		.onExhaustion(OnExhaustion.DISCARD)
		.backoffStrategy(BackoffStrategy.EXPONENTIAL)
		.build();

	private final @Nullable Integer maxAttempts;

	private final @Nullable Duration initialInterval;

	private final @Nullable Double backoffCoefficient;

	private final @Nullable Duration maxInterval;

	private final @Nullable Boolean jitter;

	private final @Nullable List<String> nonRetryableErrors;

	private final @Nullable OnExhaustion onExhaustion;

	private final @Nullable BackoffStrategy backoffStrategy;

	/** {@link #toJson()}, once written. */
	private @Nullable String json;

	/** {@link #toJsonOmittingDefaults()}, once written. */
	private @Nullable String jsonOmittingDefaults;

	private RetryPolicy(Builder builder) {
		this.maxAttempts = builder.maxAttempts;
		this.initialInterval = builder.initialInterval;
		this.backoffCoefficient = builder.backoffCoefficient;
		this.maxInterval = builder.maxInterval;
		this.jitter = builder.jitter;
		this.nonRetryableErrors = (builder.nonRetryableErrors != null)
				? Collections.unmodifiableList(new ArrayList<>(builder.nonRetryableErrors)) : null;
		this.onExhaustion = builder.onExhaustion;
		this.backoffStrategy = builder.backoffStrategy;
		RetryPolicyValidation.validate(this);
	}

	/**
	 * Parse a (possibly partial) policy in the spec's snake_case JSON, merge it over
	 * {@link #DEFAULT} (§8.1) and validate it (§11, §14).
	 * @param json a JSON object such as {@code {"max_attempts": 10}}
	 * @return the complete, effective policy
	 * @throws RetryPolicyValidationException when the JSON is malformed or the policy invalid
	 */
	public static RetryPolicy parse(String json) {
		return parsePartial(json).effective();
	}

	/**
	 * Parse a (possibly partial) policy in the spec's snake_case JSON without merging:
	 * absent fields stay unset. Each present field is validated.
	 * @param json a JSON object such as {@code {"max_attempts": 10}}
	 * @return the partial policy
	 * @throws RetryPolicyValidationException when the JSON is malformed or a field invalid
	 */
	public static RetryPolicy parsePartial(String json) {
		return RetryPolicyJson.read(json);
	}

	/** A builder for a partial policy; unset fields stay unset (no defaults applied). */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Layer this policy over {@code base}: fields set here win, unset ones fall through to
	 * {@code base} (§8.1). Lists are replaced, not concatenated.
	 * @param base the lower layer
	 * @return the merged policy, complete only if the union of both is
	 * @throws RetryPolicyValidationException when the merged intervals are inconsistent
	 */
	public RetryPolicy mergedOver(RetryPolicy base) {
		Objects.requireNonNull(base, "base must not be null");
		return fieldByField(base, RetryPolicy::pick);
	}

	/**
	 * This policy merged over {@link #DEFAULT} and fully validated (§8.1, §11.1).
	 * @return the complete, effective policy
	 * @throws RetryPolicyValidationException when the merged policy is invalid, e.g. a
	 * {@code max_interval} below the default {@code initial_interval}
	 */
	public RetryPolicy effective() {
		return isComplete() ? this : mergedOver(DEFAULT);
	}

	/** The spec's JSON names of the fields set in this policy, in the spec's order. */
	public Set<String> fieldNames() {
		return RetryPolicyJson.fieldNames(this);
	}

	/** Whether no field is set. */
	public boolean isEmpty() {
		return this.maxAttempts == null && this.initialInterval == null && this.backoffCoefficient == null
				&& this.maxInterval == null && this.jitter == null && this.nonRetryableErrors == null
				&& this.onExhaustion == null && this.backoffStrategy == null;
	}

	/** Whether every field, {@code backoff_strategy} included, is set. */
	public boolean isComplete() {
		return this.maxAttempts != null && this.initialInterval != null && this.backoffCoefficient != null
				&& this.maxInterval != null && this.jitter != null && this.nonRetryableErrors != null
				&& this.onExhaustion != null && this.backoffStrategy != null;
	}

	/**
	 * This policy in the spec's snake_case JSON. A complete policy writes all eight fields
	 * ({@code backoff_strategy} included); a partial one only the fields that are set.
	 * {@link #parse(String)} / {@link #parsePartial(String)} read it back to an equal policy.
	 */
	public String toJson() {
		// immutable: written once (a benign race at worst writes it twice, like String.hashCode)
		String json = this.json;
		if (json == null) {
			json = RetryPolicyJson.write(this);
			this.json = json;
		}
		return json;
	}

	/**
	 * The fields of this policy that differ from {@link #DEFAULT}, in the spec's snake_case
	 * JSON: <code>{}</code> for the default policy. {@link #parse(String)} merges the
	 * defaults back (§8.1), so it reads this to an equal policy; job stores keep each job's
	 * effective policy this way, a few dozen bytes instead of all eight fields.
	 */
	public String toJsonOmittingDefaults() {
		// immutable: written once, like toJson()
		String json = this.jsonOmittingDefaults;
		if (json == null) {
			json = fieldByField(DEFAULT, RetryPolicy::unlessEqual).toJson();
			this.jsonOmittingDefaults = json;
		}
		return json;
	}

	/** {@code max_attempts}: total attempts including the first (§2.2), or {@code null}. */
	public @Nullable Integer maxAttempts() {
		return this.maxAttempts;
	}

	/** {@code initial_interval}: delay before the first retry (§2.2), or {@code null}. */
	public @Nullable Duration initialInterval() {
		return this.initialInterval;
	}

	/** {@code backoff_coefficient}: {@code >= 1.0} (§2.2), or {@code null}. */
	public @Nullable Double backoffCoefficient() {
		return this.backoffCoefficient;
	}

	/** {@code max_interval}: cap on every delay (§3.5, §5.3), or {@code null}. */
	public @Nullable Duration maxInterval() {
		return this.maxInterval;
	}

	/** {@code jitter} (§5), or {@code null}. */
	public @Nullable Boolean jitter() {
		return this.jitter;
	}

	/** {@code non_retryable_errors} (§6), unmodifiable, or {@code null}. */
	public @Nullable List<String> nonRetryableErrors() {
		return this.nonRetryableErrors;
	}

	/** {@code on_exhaustion} (§2.2), or {@code null}. */
	public @Nullable OnExhaustion onExhaustion() {
		return this.onExhaustion;
	}

	/** The {@code backoff_strategy} extension field (§3), or {@code null}. */
	public @Nullable BackoffStrategy backoffStrategy() {
		return this.backoffStrategy;
	}

	/**
	 * The delay before retry {@code retryNumber} per the backoff strategy (§3), capped at
	 * {@code max_interval} (§3.5), without jitter. Never negative, never above
	 * {@code max_interval}, for any {@code retryNumber} up to {@link Integer#MAX_VALUE}.
	 * @param retryNumber 1-based: retry 1 is attempt 2
	 * @return the capped delay
	 * @throws IllegalArgumentException when {@code retryNumber < 1}
	 * @throws IllegalStateException when this policy is not complete
	 */
	public Duration delayBeforeRetry(int retryNumber) {
		requireComplete();
		if (retryNumber < 1) {
			throw new IllegalArgumentException("retryNumber must be >= 1, got " + retryNumber);
		}
		return Backoff.cappedDelay(this.backoffStrategy, this.initialInterval, this.backoffCoefficient, retryNumber,
				this.maxInterval);
	}

	/**
	 * {@link #delayBeforeRetry(int)} followed, when {@code jitter} is true, by a multiplier
	 * drawn uniformly from {@code [0.5, 1.5)} and the {@code max_interval} cap again (§5,
	 * RET-05, RET-06).
	 * @param retryNumber 1-based: retry 1 is attempt 2
	 * @param random the source of the jitter multiplier
	 * @return the final delay
	 * @throws IllegalArgumentException when {@code retryNumber < 1}
	 * @throws IllegalStateException when this policy is not complete
	 */
	public Duration delayBeforeRetry(int retryNumber, RandomGenerator random) {
		Objects.requireNonNull(random, "random must not be null");
		Duration effectiveDelay = delayBeforeRetry(retryNumber);
		if (!this.jitter) {
			return effectiveDelay;
		}
		// §5.1 random(0.5, 1.5): uniform in the half-open interval [0.5, 1.5)
		return Backoff.jittered(effectiveDelay, random.nextDouble(0.5, 1.5), this.maxInterval);
	}

	/**
	 * Whether {@code errorType} matches an entry of {@code non_retryable_errors} (§6.2):
	 * identical to an entry, or starting with {@code prefix.} for an entry
	 * {@code prefix.*}. An unset list matches nothing.
	 */
	public boolean isNonRetryable(@Nullable String errorType) {
		if (errorType == null || this.nonRetryableErrors == null) {
			return false;
		}
		for (String entry : this.nonRetryableErrors) {
			// §6.2 rule 1: exact match
			if (entry.equals(errorType)) {
				return true;
			}
			// §6.2 rule 2: "prefix.*" matches types starting with "prefix."
			if (entry.endsWith(".*") && errorType.startsWith(entry.substring(0, entry.length() - 1))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Decide what happens after attempt {@code failedAttempt} failed with {@code error},
	 * following the precedence of §7.2 (RET-07, RET-08, RET-17):
	 * <ol>
	 * <li>{@link ErrorCode#DISCARD} → discard; {@link ErrorCode#FAIL} → discard;
	 * {@link ErrorCode#DEAD_LETTER} → dead letter, regardless of the policy;</li>
	 * <li>{@link ErrorCode#RETRY}: a {@code non_retryable_errors} match → per
	 * {@code on_exhaustion};</li>
	 * <li>{@code failedAttempt >= max_attempts} → per {@code on_exhaustion} (so
	 * {@code max_attempts} 0 and 1 both allow no retry, §2.2);</li>
	 * <li>otherwise retry after {@link #delayBeforeRetry(int, RandomGenerator)} with
	 * {@code retryNumber = failedAttempt}.</li>
	 * </ol>
	 * @param failedAttempt the 1-based attempt that just failed
	 * @param error the failure
	 * @param random the jitter source
	 * @return the decision
	 * @throws IllegalArgumentException when {@code failedAttempt < 1}
	 * @throws IllegalStateException when this policy is not complete
	 */
	public RetryDecision decide(int failedAttempt, JobError error, RandomGenerator random) {
		requireComplete();
		Objects.requireNonNull(error, "error must not be null");
		Objects.requireNonNull(random, "random must not be null");
		if (failedAttempt < 1) {
			throw new IllegalArgumentException("failedAttempt must be >= 1, got " + failedAttempt);
		}
		return switch (error.code()) {
			// §7.2 item 1
			case DISCARD -> RetryDecision.discard(RetryDecision.Rule.HANDLER_DISCARD);
			// §7.2 item 4
			case FAIL -> RetryDecision.discard(RetryDecision.Rule.HANDLER_FAIL);
			// §7.2 item 2
			case DEAD_LETTER -> RetryDecision.deadLetter(RetryDecision.Rule.HANDLER_DEAD_LETTER);
			// §7.2 item 3: non_retryable_errors, then remaining attempts, then backoff
			case RETRY -> decideRetry(failedAttempt, error, random);
		};
	}

	private RetryDecision decideRetry(int failedAttempt, JobError error, RandomGenerator random) {
		// §6.3: a non-retryable error goes straight to the on_exhaustion outcome
		if (isNonRetryable(error.type())) {
			return exhausted(RetryDecision.Rule.NON_RETRYABLE);
		}
		// §2.2: max_attempts is an exact upper bound on total attempts (RET-01)
		if (failedAttempt >= this.maxAttempts) {
			return exhausted(RetryDecision.Rule.EXHAUSTED);
		}
		return RetryDecision.retry(delayBeforeRetry(failedAttempt, random));
	}

	private RetryDecision exhausted(RetryDecision.Rule rule) {
		return (this.onExhaustion == OnExhaustion.DEAD_LETTER) ? RetryDecision.deadLetter(rule)
				: RetryDecision.discard(rule);
	}

	/**
	 * Cap a custom delay (e.g. from a handler override) at {@code max_interval} (§3.5) and
	 * floor it at zero (§5.1).
	 * @param delay the proposed delay
	 * @return {@code min(delay, max_interval)}, at least zero
	 * @throws IllegalStateException when this policy is not complete
	 */
	public Duration capDelay(Duration delay) {
		requireComplete();
		Objects.requireNonNull(delay, "delay must not be null");
		return Backoff.cap(delay, this.maxInterval);
	}

	private void requireComplete() {
		if (!isComplete()) {
			throw new IllegalStateException("retry policy is partial, use effective() first: " + toJson());
		}
	}

	/** A new policy whose every field is {@code rule} applied to this policy's and {@code other}'s. */
	private RetryPolicy fieldByField(RetryPolicy other, RetryPolicyFieldRule rule) {
		return builder().maxAttempts(rule.apply(this.maxAttempts, other.maxAttempts))
			.initialInterval(rule.apply(this.initialInterval, other.initialInterval))
			.backoffCoefficient(rule.apply(this.backoffCoefficient, other.backoffCoefficient))
			.maxInterval(rule.apply(this.maxInterval, other.maxInterval))
			.jitter(rule.apply(this.jitter, other.jitter))
			.nonRetryableErrors(rule.apply(this.nonRetryableErrors, other.nonRetryableErrors))
			.onExhaustion(rule.apply(this.onExhaustion, other.onExhaustion))
			.backoffStrategy(rule.apply(this.backoffStrategy, other.backoffStrategy))
			.build();
	}

	private static <T> @Nullable T unlessEqual(@Nullable T value, @Nullable T other) {
		return Objects.equals(value, other) ? null : value;
	}

	private static <T> @Nullable T pick(@Nullable T value, @Nullable T fallback) {
		return (value != null) ? value : fallback;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (!(other instanceof RetryPolicy that)) {
			return false;
		}
		return Objects.equals(this.maxAttempts, that.maxAttempts)
				&& Objects.equals(this.initialInterval, that.initialInterval)
				&& Objects.equals(this.backoffCoefficient, that.backoffCoefficient)
				&& Objects.equals(this.maxInterval, that.maxInterval) && Objects.equals(this.jitter, that.jitter)
				&& Objects.equals(this.nonRetryableErrors, that.nonRetryableErrors)
				&& this.onExhaustion == that.onExhaustion && this.backoffStrategy == that.backoffStrategy;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.maxAttempts, this.initialInterval, this.backoffCoefficient, this.maxInterval,
				this.jitter, this.nonRetryableErrors, this.onExhaustion, this.backoffStrategy);
	}

	@Override
	public String toString() {
		return "RetryPolicy" + toJson();
	}

	/**
	 * Builds a (partial) {@link RetryPolicy}. Passing {@code null} leaves a field unset.
	 * {@link #build()} validates the set fields and throws
	 * {@link RetryPolicyValidationException} on invalid values.
	 */
	public static final class Builder {

		private @Nullable Integer maxAttempts;

		private @Nullable Duration initialInterval;

		private @Nullable Double backoffCoefficient;

		private @Nullable Duration maxInterval;

		private @Nullable Boolean jitter;

		private @Nullable List<String> nonRetryableErrors;

		private @Nullable OnExhaustion onExhaustion;

		private @Nullable BackoffStrategy backoffStrategy;

		private Builder() {
		}

		/** {@code max_attempts}, {@code >= 0}. */
		public Builder maxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
			return this;
		}

		/** {@code initial_interval}, {@code > 0}. */
		public Builder initialInterval(@Nullable Duration initialInterval) {
			this.initialInterval = initialInterval;
			return this;
		}

		/** {@code backoff_coefficient}, finite and {@code >= 1.0}. */
		public Builder backoffCoefficient(@Nullable Double backoffCoefficient) {
			this.backoffCoefficient = backoffCoefficient;
			return this;
		}

		/** {@code max_interval}, {@code > 0} and {@code >= initial_interval}. */
		public Builder maxInterval(@Nullable Duration maxInterval) {
			this.maxInterval = maxInterval;
			return this;
		}

		/** {@code jitter}. */
		public Builder jitter(@Nullable Boolean jitter) {
			this.jitter = jitter;
			return this;
		}

		/** {@code non_retryable_errors}: non-empty strings; exact types or {@code prefix.*}. */
		public Builder nonRetryableErrors(@Nullable Collection<String> nonRetryableErrors) {
			this.nonRetryableErrors = (nonRetryableErrors != null) ? new ArrayList<>(nonRetryableErrors) : null;
			return this;
		}

		/** {@code non_retryable_errors}: non-empty strings; exact types or {@code prefix.*}. */
		public Builder nonRetryableErrors(String @Nullable ... nonRetryableErrors) {
			return nonRetryableErrors((nonRetryableErrors != null) ? Arrays.asList(nonRetryableErrors) : null);
		}

		/** {@code on_exhaustion}. */
		public Builder onExhaustion(@Nullable OnExhaustion onExhaustion) {
			this.onExhaustion = onExhaustion;
			return this;
		}

		/** The {@code backoff_strategy} extension field. */
		public Builder backoffStrategy(@Nullable BackoffStrategy backoffStrategy) {
			this.backoffStrategy = backoffStrategy;
			return this;
		}

		/**
		 * Build the (possibly partial) policy; no defaults are applied.
		 * @throws RetryPolicyValidationException when a set field is invalid
		 */
		public RetryPolicy build() {
			return new RetryPolicy(this);
		}

	}

}

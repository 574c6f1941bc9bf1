package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;

import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsNames;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.RegisteredJob;

/**
 * The parsed and validated attributes of one {@link OjsJob @OjsJob} annotation: the
 * {@link RegisteredJob} they describe, and the one setting that it does not keep.
 *
 * @param job the registered job, with the effective visibility timeout and retry policy
 * @param handlerVisibilityTimeout the annotation's own visibility timeout, or {@code null}
 * when it inherits the application's
 * @param timeout the annotation's execution timeout, or {@code null} for none
 */
record OjsJobAttributes(RegisteredJob job, @Nullable Duration handlerVisibilityTimeout, @Nullable Duration timeout) {

	/** Annotation attribute per retry policy field, to name it in errors. */
	private static final Map<String, String> ATTRIBUTES = Map.of("max_attempts", "maxAttempts", "initial_interval",
			"initialInterval", "backoff_coefficient", "backoffCoefficient", "max_interval", "maxInterval", "jitter",
			"jitter", "non_retryable_errors", "nonRetryableErrors", "on_exhaustion", "onExhaustion",
			"backoff_strategy", "backoff");

	/**
	 * @param annotation the annotation
	 * @param applicationPolicy the application's default policy, which the annotation's
	 * settings are merged over
	 * @param defaultVisibilityTimeout the application's default visibility timeout
	 * @param beanName the bean that declares the handler method
	 * @param method the handler method, e.g. {@code EmailJobs#sendWelcome(String, int)}
	 * @throws IllegalArgumentException naming the attribute when one is invalid
	 */
	static OjsJobAttributes of(OjsJob annotation, RetryPolicy applicationPolicy, Duration defaultVisibilityTimeout,
			String beanName, String method) {
		if (!OjsNames.isType(annotation.type())) {
			throw invalid("type", annotation.type(), OjsNames.TYPE_MESSAGE);
		}
		if (!annotation.queue().isEmpty() && !OjsNames.isQueue(annotation.queue())) {
			throw invalid("queue", annotation.queue(), OjsNames.QUEUE_MESSAGE);
		}
		String queue = annotation.queue().isEmpty() ? NewJob.DEFAULT_QUEUE : annotation.queue();
		int priority = (annotation.priority() != OjsJob.INHERIT_PRIORITY) ? annotation.priority() : 0;
		if (annotation.concurrency() < 0) {
			throw invalid("concurrency", annotation.concurrency(), "must be at least 0");
		}
		if (annotation.globalConcurrency() < 0) {
			throw invalid("globalConcurrency", annotation.globalConcurrency(), "must be at least 0");
		}
		if (annotation.globalConcurrencyPerKey() < 0) {
			throw invalid("globalConcurrencyPerKey", annotation.globalConcurrencyPerKey(), "must be at least 0");
		}
		Duration visibilityTimeout = duration("visibilityTimeout", annotation.visibilityTimeout());
		if (visibilityTimeout != null && visibilityTimeout.isZero()) {
			throw invalid("visibilityTimeout", annotation.visibilityTimeout(), "must be positive");
		}
		Duration timeout = duration("timeout", annotation.timeout());
		if (timeout != null && timeout.isZero()) {
			throw invalid("timeout", annotation.timeout(), "must be positive");
		}
		RetryPolicy handlerPolicy = handlerPolicy(annotation);
		RetryPolicy effectivePolicy;
		try {
			effectivePolicy = handlerPolicy.mergedOver(applicationPolicy).effective();
		}
		catch (RetryPolicyValidationException ex) {
			throw invalid(attribute(ex), ex.value(), ex.getMessage() + " (after merging over ojs.retry.*)");
		}
		RegisteredJob job = new RegisteredJob(annotation.type(), queue, priority, annotation.concurrency(),
				annotation.globalConcurrency(), annotation.globalConcurrencyPerKey(),
				(visibilityTimeout != null) ? visibilityTimeout : defaultVisibilityTimeout, handlerPolicy,
				effectivePolicy, beanName, method);
		return new OjsJobAttributes(job, visibilityTimeout, timeout);
	}

	/** The annotation's own settings: {@code null} (and the sentinels) leave a field unset. */
	private static RetryPolicy handlerPolicy(OjsJob annotation) {
		if (annotation.maxAttempts() != OjsJob.INHERIT && annotation.maxAttempts() < 0) {
			throw invalid("maxAttempts", annotation.maxAttempts(), "must be at least 0 (-1 inherits)");
		}
		List<String> nonRetryableErrors = List.of(annotation.nonRetryableErrors());
		boolean inheritErrors = nonRetryableErrors.equals(List.of(OjsJob.INHERIT_LIST));
		if (!inheritErrors && nonRetryableErrors.contains(OjsJob.INHERIT_LIST)) {
			throw invalid("nonRetryableErrors", nonRetryableErrors,
					"'" + OjsJob.INHERIT_LIST + "' (inherit) must be the only entry");
		}
		RetryPolicy.Builder builder = RetryPolicy.builder()
			.maxAttempts((annotation.maxAttempts() != OjsJob.INHERIT) ? annotation.maxAttempts() : null)
			.initialInterval(duration("initialInterval", annotation.initialInterval()))
			.backoffCoefficient((annotation.backoffCoefficient() != OjsJob.INHERIT) ? annotation.backoffCoefficient() : null)
			.maxInterval(duration("maxInterval", annotation.maxInterval()))
			.backoffStrategy(annotation.backoff().strategy())
			.jitter(annotation.jitter().jitter())
			.nonRetryableErrors(inheritErrors ? null : nonRetryableErrors)
			.onExhaustion(annotation.onExhaustion().onExhaustion());
		try {
			return builder.build();
		}
		catch (RetryPolicyValidationException ex) {
			throw invalid(attribute(ex), ex.value(), ex.getMessage());
		}
	}

	private static @Nullable Duration duration(String attribute, String value) {
		if (value.isEmpty()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(value.strip());
		}
		catch (IllegalArgumentException ex) {
			throw invalid(attribute, value, "not a duration (use ISO-8601 such as 'PT0.5S' or '500ms')");
		}
		if (duration.isNegative()) {
			throw invalid(attribute, value, "must not be negative");
		}
		return duration;
	}

	private static String attribute(RetryPolicyValidationException ex) {
		return (ex.field() != null) ? ATTRIBUTES.getOrDefault(ex.field(), ex.field()) : "retry";
	}

	private static IllegalArgumentException invalid(String attribute, @Nullable Object value, String reason) {
		return new IllegalArgumentException("attribute '" + attribute + "' = '" + value + "': " + reason);
	}

}

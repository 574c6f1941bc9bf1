package dev.ojs.spring.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsNames;
import dev.ojs.worker.WorkerSettings;

/**
 * The checks of {@link OjsProperties} at binding: an invalid value fails start-up with a
 * message naming the property.
 */
final class OjsPropertiesValidation {

	private OjsPropertiesValidation() {
	}

	static void validate(OjsProperties properties, Errors errors) {
		positive(errors, "visibilityTimeout", "ojs.visibility-timeout", properties.getVisibilityTimeout());
		atLeast(errors, "errorHistoryLimit", "ojs.error-history-limit", properties.getErrorHistoryLimit(),
				WorkerSettings.MIN_ERROR_HISTORY);
		atLeast(errors, "worker.concurrency", "ojs.worker.concurrency", properties.getWorker().getConcurrency(), 1);
		properties.getWorker().getQueues().forEach((queue, concurrency) -> {
			if (!OjsNames.isQueue(queue)) {
				reject(errors, "worker.queues", "ojs.worker.queues", queue, OjsNames.QUEUE_MESSAGE);
			}
			if (concurrency != null && concurrency < 0) {
				reject(errors, "worker.queues", "ojs.worker.queues." + queue, concurrency,
						"the concurrency must be at least 1 (0 or empty means ojs.worker.concurrency)");
			}
		});
		positive(errors, "worker.pollInterval", "ojs.worker.poll-interval", properties.getWorker().getPollInterval());
		notNegative(errors, "worker.shutdownGracePeriod", "ojs.worker.shutdown-grace-period",
				properties.getWorker().getShutdownGracePeriod());
		if (properties.getJdbc().getTablePrefix() == null || !JdbcStoreSettings.TABLE_PREFIX.matcher(properties.getJdbc().getTablePrefix()).matches()) {
			reject(errors, "jdbc.tablePrefix", "ojs.jdbc.table-prefix", properties.getJdbc().getTablePrefix(),
					"must match " + JdbcStoreSettings.TABLE_PREFIX.pattern());
		}
		if (properties.getJdbc().getInitializeSchema() == null) {
			reject(errors, "jdbc.initializeSchema", "ojs.jdbc.initialize-schema", null, "must be set");
		}
		positive(errors, "deadLetter.maxAge", "ojs.dead-letter.max-age", properties.getDeadLetter().getMaxAge());
		atLeast(errors, "deadLetter.maxCount", "ojs.dead-letter.max-count", properties.getDeadLetter().getMaxCount(), 0);
		notNegative(errors, "retention.completed", "ojs.retention.completed", properties.getRetention().getCompleted());
		notNegative(errors, "retention.discarded", "ojs.retention.discarded", properties.getRetention().getDiscarded());
		positive(errors, "retention.pruneInterval", "ojs.retention.prune-interval", properties.getRetention().getPruneInterval());
		properties.getRateLimits().forEach((queue, limit) -> {
			if (!OjsNames.isQueue(queue)) {
				// the rule OjsQueues, which sets the limits at start-up, applies to every edge
				reject(errors, "rateLimits", "ojs.rate-limits", queue, OjsNames.QUEUE_MESSAGE);
			}
			try {
				limit.toRateLimit();
			}
			catch (IllegalArgumentException ex) {
				reject(errors, "rateLimits", "ojs.rate-limits." + queue, limit, ex.getMessage());
			}
		});
		properties.getQueues().forEach((queue, settings) -> {
			if (!OjsNames.isQueue(queue)) {
				reject(errors, "queues", "ojs.queues", queue, OjsNames.QUEUE_MESSAGE);
			}
			Integer concurrency = settings.getConcurrency();
			if (concurrency != null && concurrency < 1) {
				reject(errors, "queues", "ojs.queues." + queue + ".concurrency", concurrency, "must be at least 1");
			}
		});
		positive(errors, "maxArgsSize", "ojs.max-args-size", properties.getMaxArgsSize());
		positive(errors, "maxMetaSize", "ojs.max-meta-size", properties.getMaxMetaSize());
		DataSize maxResultSize = properties.getMaxResultSize();
		if (maxResultSize == null || maxResultSize.toBytes() < JobSizeLimits.MIN_MAX_RESULT_BYTES) {
			reject(errors, "maxResultSize", "ojs.max-result-size", maxResultSize, "must be at least 64KB");
		}
		try {
			properties.defaultRetryPolicy();
		}
		catch (RetryPolicyValidationException ex) {
			String field = (ex.field() != null) ? ex.field() : "";
			reject(errors, "retry." + camelCase(field), "ojs.retry." + field.replace('_', '-'), ex.value(),
					ex.getMessage());
		}
	}

	private static void positive(Errors errors, String field, String property, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			reject(errors, field, property, value, "must be a positive duration");
		}
	}

	private static void positive(Errors errors, String field, String property, @Nullable DataSize value) {
		if (value == null || value.toBytes() < 1) {
			reject(errors, field, property, value, "must be at least 1B");
		}
	}

	private static void notNegative(Errors errors, String field, String property, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			reject(errors, field, property, value, "must not be negative");
		}
	}

	private static void atLeast(Errors errors, String field, String property, int value, int min) {
		if (value < min) {
			reject(errors, field, property, value, "must be at least " + min);
		}
	}

	private static void reject(Errors errors, String field, String property, @Nullable Object value,
			String reason) {
		String message = "Invalid value '" + value + "' for property '" + property + "': " + reason;
		if (errors.getFieldType(field) != null) {
			errors.rejectValue(field, "ojs.invalid", message);
		}
		else {
			errors.reject("ojs.invalid", message);
		}
	}

	private static String camelCase(String snakeCase) {
		StringBuilder result = new StringBuilder(snakeCase.length());
		boolean upper = false;
		for (char c : snakeCase.toCharArray()) {
			if (c == '_' || c == '-') {
				upper = true;
			}
			else {
				result.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return result.toString();
	}

}

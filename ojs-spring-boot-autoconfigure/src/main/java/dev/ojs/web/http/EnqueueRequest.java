package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.job.RateLimit;
import dev.ojs.job.Timestamps;
import dev.ojs.json.JobJson;
import dev.ojs.spring.JobOptionRules;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsNames;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.RateLimits;

/**
 * One job of a PUSH request (ojs-http-binding.md §9.1, openapi.yaml {@code EnqueueRequest})
 * read from the wire format into {@link OjsTemplate}'s types: {@code type} a string,
 * {@code args} a JSON array, {@code meta} an object, and the options (given under
 * {@code options}, or at the top level as in the JSON wire envelope) of the JSON types and
 * forms ojs-json-format.md gives them. What the enqueue checks for every edge is left to it:
 * the type and queue names ({@link OjsNames}), the options' rules ({@link JobOptionRules}:
 * priority range, tags, a pending job's run time, expiry after the run time), the sizes of
 * {@code args} and {@code meta} and the retry policy (RET-16, decision 3). What stays here
 * is reading JSON: a value of the wrong JSON type, a named priority (decision 19), relative
 * times (decision 16).
 *
 * @param type the job type
 * @param args the arguments, one JSON value each
 * @param options queue, priority, schedule, retry policy, metadata and unique key
 * @param unique the unique policy, or {@code null}
 * @param rateLimit the rate limit the job sets for its queue (decision 22), or {@code null}
 */
record EnqueueRequest(String type, List<JsonNode> args, JobOptions options, @Nullable UniquePolicy unique,
		@Nullable RateLimit rateLimit) {

	/** Job types: the rule of {@link OjsNames}. */
	static final Pattern TYPE = OjsNames.TYPE;

	/** Queue names: the rule of {@link OjsNames}. */
	static final Pattern QUEUE = OjsNames.QUEUE;

	static final int MAX_TYPE_LENGTH = OjsNames.MAX_TYPE_LENGTH;

	static final int MAX_QUEUE_LENGTH = OjsNames.MAX_QUEUE_LENGTH;

	/** Decision 19: named priorities over HTTP. */
	static final Map<String, Integer> NAMED_PRIORITIES = Map.of("high", 10, "normal", 0, "low", -10);

	/** Options accepted under {@code options} or at the top level. */
	private static final Set<String> OPTIONS = Set.of("queue", "priority", "timeout_ms", "scheduled_at",
			"delay_until", "expires_at", "retry", "retry_policy", "unique", "tags", "visibility_timeout_ms",
			"visibility_timeout", "metadata", "pending", "rate_limit", "concurrency_key",
			"sequence_key");

	/**
	 * Envelope fields of ojs-core.md §5 and the binding that are read here or set by the
	 * server; any other top-level field is an unknown field, kept (L0-ENV-006).
	 */
	private static final Set<String> ENVELOPE = Set.of("specversion", "id", "type", "args", "meta", "options",
			"schema", "state", "attempt", "max_attempts", "created_at", "enqueued_at", "started_at", "completed_at",
			"cancelled_at", "discarded_at", "errors", "error", "result", "next_retry_at", "unique_key");

	/**
	 * Reads one job; {@code now} resolves relative times (decision 16), {@code queueOfType}
	 * gives the queue of a job enqueued without one (for its unique key).
	 */
	static EnqueueRequest read(JsonNode body, String path, Instant now, Function<String, String> queueOfType,
			JsonMapper jsonMapper) {
		if (!body.isObject()) {
			throw invalid(path, "The request body must be a JSON object.", "object", body);
		}
		JsonNode specversion = body.get("specversion");
		if (specversion != null && !(specversion.isString() && specversion.stringValue().startsWith("1."))) {
			throw invalid(path + "specversion", "The 'specversion' field must be \"1.0\".", "\"1.0\"", specversion);
		}
		String type = type(body.get("type"), path + "type");
		JsonNode args = body.get("args");
		if (args == null || !args.isArray()) {
			throw invalid(path + "args", "The 'args' field must be a JSON array.", "array", args);
		}
		List<JsonNode> argList = new ArrayList<>(args.size());
		args.forEach(argList::add);
		ObjectNode options = options(body, path);
		JobOptions.Builder builder = JobOptions.builder();
		Map<String, Object> meta = new LinkedHashMap<>();
		meta(body.get("meta"), path + "meta", meta);
		meta(options.get("metadata"), path + "options.metadata", meta);
		ObjectNode unknown = ((ObjectNode) body).objectNode();
		body.properties().forEach((entry) -> {
			if (!ENVELOPE.contains(entry.getKey()) && !OPTIONS.contains(entry.getKey())) {
				unknown.set(entry.getKey(), entry.getValue());
			}
		});
		if (!unknown.isEmpty()) {
			meta.put(JobJson.UNKNOWN_FIELDS, unknown);
		}
		builder.meta(meta);
		JsonNode id = body.get("id");
		if (id != null && !id.isNull()) {
			// the service checks its form (OjsNames.checkJobId): a chosen id that is not text is refused there
			builder.id(id.isString() ? id.stringValue() : id.toString());
		}
		String queue = optionalString(options.get("queue"), path + "options.queue");
		if (queue != null) {
			builder.queue(queue);
		}
		JsonNode priority = options.get("priority");
		if (priority != null && !priority.isNull()) {
			builder.priority(priority(priority, path + "options.priority"));
		}
		// 0 means none: the handler's timeout, the fetch's or worker's visibility
		builder.timeout(positiveMillis(options.get("timeout_ms"), path + "options.timeout_ms"));
		Duration visibility = positiveMillis(options.get("visibility_timeout_ms"),
				path + "options.visibility_timeout_ms");
		Duration visibilityIso = optionalDuration(options.get("visibility_timeout"), path + "options.visibility_timeout");
		builder.visibilityTimeout((visibility != null) ? visibility
				: (visibilityIso != null && !visibilityIso.isZero() && !visibilityIso.isNegative()) ? visibilityIso : null);
		builder.concurrencyKey(optionalString(options.get("concurrency_key"), path + "options.concurrency_key"));
		builder.sequenceKey(optionalString(options.get("sequence_key"), path + "options.sequence_key"));
		List<String> tags = tags(options.get("tags"), path + "options.tags");
		if (tags != null) {
			builder.tags(tags);
		}
		optionalString(body.get("schema"), path + "schema");
		JsonNode scheduled = options.has("scheduled_at") ? options.get("scheduled_at") : options.get("delay_until");
		Instant runAt = instant(scheduled, path + "options.scheduled_at", now);
		if (runAt != null) {
			builder.runAt(runAt);
			if (!scheduled.stringValue().startsWith("+")) {
				// decision 16: an absolute time is echoed exactly as sent
				builder.meta(JobJson.SCHEDULED_AT_AS_SENT, scheduled.stringValue());
			}
		}
		JsonNode expires = options.get("expires_at");
		Instant expiresAt = instant(expires, path + "options.expires_at", now);
		if (expiresAt != null) {
			builder.expiresAt(expiresAt);
			if (!expires.stringValue().startsWith("+")) {
				// decision 16: an absolute time is echoed exactly as sent
				builder.meta(JobJson.EXPIRES_AT_AS_SENT, expires.stringValue());
			}
		}
		JsonNode rateLimitNode = options.get("rate_limit");
		RateLimit rateLimit = null;
		if (rateLimitNode != null && !rateLimitNode.isNull()) {
			// decision 22: a job's rate limit configures its queue
			rateLimit = RateLimits.read(rateLimitNode.isObject() ? jsonMapper.convertValue(rateLimitNode, Map.class)
					: rateLimitNode, path + "options.rate_limit");
		}
		JsonNode pending = options.get("pending");
		if (pending != null && !pending.isNull()) {
			if (!pending.isBoolean()) {
				throw invalid(path + "options.pending", "The 'pending' option must be a boolean.", "boolean", pending);
			}
			builder.pending(pending.booleanValue());
		}
		JsonNode retry = options.has("retry") ? options.get("retry") : options.get("retry_policy");
		if (retry != null && !retry.isNull()) {
			builder.retry(RetryJson.toSpec(retry, path + "options.retry"));
		}
		UniquePolicy unique = null;
		JsonNode uniqueNode = options.get("unique");
		if (uniqueNode != null && !uniqueNode.isNull()) {
			unique = UniquePolicy.read(uniqueNode, path + "options.unique");
			builder.uniqueKey(unique.key(type, (queue != null) ? queue : queueOfType.apply(type), argList, meta,
					jsonMapper, path + "options.unique"));
			builder.uniquePeriod(unique.period()).uniqueStates(unique.states());
		}
		return new EnqueueRequest(type, argList, builder.build(), unique, rateLimit);
	}

	private static String type(@Nullable JsonNode node, String field) {
		if (node == null || !node.isString()) {
			throw invalid(field, "The 'type' field is required and must be a string.", "string", node);
		}
		return node.stringValue();
	}

	/** The options object merged over the top-level option fields. */
	private static ObjectNode options(JsonNode body, String path) {
		JsonNode given = body.get("options");
		if (given != null && !given.isNull() && !given.isObject()) {
			throw invalid(path + "options", "The 'options' field must be a JSON object.", "object", given);
		}
		ObjectNode options = ((ObjectNode) body).objectNode();
		for (String name : OPTIONS) {
			if (body.has(name) && !name.equals("metadata")) {
				options.set(name, body.get(name));
			}
		}
		if (given != null && given.isObject()) {
			given.properties().forEach((entry) -> options.set(entry.getKey(), entry.getValue()));
		}
		return options;
	}

	private static void meta(@Nullable JsonNode node, String field, Map<String, Object> meta) {
		if (node == null || node.isNull()) {
			return;
		}
		if (!node.isObject()) {
			throw invalid(field, "The '" + field + "' field must be a JSON object.", "object", node);
		}
		node.properties().forEach((entry) -> meta.put(entry.getKey(), entry.getValue()));
	}

	private static int priority(JsonNode node, String field) {
		if (node.isString()) {
			Integer named = NAMED_PRIORITIES.get(node.stringValue());
			if (named == null) {
				throw invalid(field, "A named priority is 'high', 'normal' or 'low'.", "high|normal|low", node);
			}
			return named;
		}
		return integerPriority(node, field);
	}

	/** A priority given as a number; its range is the service's rule ({@link JobOptionRules}). */
	static int integerPriority(JsonNode node, String field) {
		if (!node.isIntegralNumber() || !node.canConvertToInt()) {
			throw invalid(field, JobOptionRules.PRIORITY_MESSAGE, "integer", node);
		}
		return node.intValue();
	}

	private static @Nullable String optionalString(@Nullable JsonNode node, String field) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString()) {
			throw invalid(field, "The '" + field + "' field must be a string.", "string", node);
		}
		return node.stringValue();
	}

	/** Milliseconds given as a non-negative integer, or {@code null} when absent or 0. */
	private static @Nullable Duration positiveMillis(@Nullable JsonNode node, String field) {
		nonNegativeInteger(node, field);
		return (node == null || node.isNull() || node.longValue() == 0) ? null : Duration.ofMillis(node.longValue());
	}

	private static void nonNegativeInteger(@Nullable JsonNode node, String field) {
		if (node != null && !node.isNull()
				&& (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0)) {
			throw invalid(field, "The '" + field + "' field must be a non-negative integer.", "integer", node);
		}
	}

	/** An ISO-8601 duration, or {@code null} when absent. */
	static @Nullable Duration optionalDuration(@Nullable JsonNode node, String field) {
		String value = optionalString(node, field);
		if (value != null) {
			try {
				return Duration.parse(value);
			}
			catch (DateTimeParseException ex) {
				throw invalid(field, "The '" + field + "' field must be an ISO-8601 duration.", "duration", node);
			}
		}
		return null;
	}

	/**
	 * The tags as a list, a JSON {@code null} tag as {@code null}: whether a tag may be
	 * {@code null} is the service's rule ({@link JobOptionRules}).
	 */
	private static @Nullable List<String> tags(@Nullable JsonNode node, String field) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isArray()) {
			throw invalid(field, JobOptionRules.TAGS_MESSAGE, "array", node);
		}
		List<String> tags = new ArrayList<>(node.size());
		node.forEach((tag) -> {
			if (!tag.isString() && !tag.isNull()) {
				throw invalid(field, JobOptionRules.TAGS_MESSAGE, "string", tag);
			}
			tags.add(tag.isNull() ? null : tag.stringValue());
		});
		return tags;
	}

	/**
	 * An RFC 3339 timestamp, or {@code +<ISO-8601 duration>} from now (decision 16).
	 */
	static @Nullable Instant instant(@Nullable JsonNode node, String field, Instant now) {
		String value = optionalString(node, field);
		if (value == null) {
			return null;
		}
		try {
			if (value.startsWith("+")) {
				Duration delay = Duration.parse(value.substring(1));
				if (delay.isNegative()) {
					throw new DateTimeParseException("negative", value, 0);
				}
				return Timestamps.plus(now, delay);
			}
			Instant instant = OffsetDateTime.parse(value).toInstant();
			if (instant.isAfter(Timestamps.MAX)) {
				throw new DateTimeParseException("too late", value, 0);
			}
			return instant;
		}
		catch (DateTimeParseException | ArithmeticException ex) {
			throw invalid(field, "The '" + field + "' field must be an RFC 3339 timestamp or +<ISO-8601 duration>.",
					"timestamp", node);
		}
	}

	private static void unsupported(JsonNode options, String name, String path, String message) {
		JsonNode node = options.get(name);
		if (node != null && !node.isNull()) {
			throw new ApiException(422, ApiError.UNSUPPORTED, message, false, Map.of("field", path + "options." + name));
		}
	}

	/** {@code 400 invalid_request} naming the field, what it expects and what it got. */
	static ApiException invalid(String field, String message, String expected, @Nullable JsonNode received) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("field", field);
		details.put("expected", expected);
		details.put("received", kind(received));
		return ApiException.invalidRequest(message, details);
	}

	static String kind(@Nullable JsonNode node) {
		if (node == null || node.isMissingNode()) {
			return "missing";
		}
		return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
	}

}

package dev.ojs.json;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.worker.RemoteAttempts;

/**
 * A stored job as JSON: the one mapping of a job, for the HTTP binding
 * ({@link #job(Job, Instant)}), the Admin API and the dashboard ({@link #summary(Job)},
 * {@link #detail(Job, RetryPolicyLayers, boolean)}), and the parts the actuator and the Java
 * API's {@code JobInfo} write ({@link #parse(JsonMapper, String)},
 * {@link PolicySerializer}, {@link StateSerializer}). Each surface follows its own spec
 * document; {@link Surface} says where they differ and why.
 */
public final class JobJson {

	/**
	 * The meta key under which an enqueued envelope's unknown top-level fields are stored
	 * (L0-ENV-006); shown again as top-level fields by the binding, not in {@code meta}.
	 */
	public static final String UNKNOWN_FIELDS = "ojs.unknown_fields";

	/**
	 * The meta key under which an absolute {@code scheduled_at} is kept as sent; shown as
	 * {@code scheduled_at} while the job is scheduled (spec README decision 16).
	 */
	public static final String SCHEDULED_AT_AS_SENT = "ojs.scheduled_at";

	/** The meta key under which an absolute {@code expires_at} is kept as sent (decision 16). */
	public static final String EXPIRES_AT_AS_SENT = "ojs.expires_at";

	private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	/**
	 * Where the surfaces that show a job differ, each following its own document.
	 * <ul>
	 * <li>{@link #BINDING} (ojs-http-binding.md, openapi.yaml {@code Job}): timestamps in UTC
	 * with milliseconds (§6.3); a field without a value is left out; error codes are the
	 * handler codes ({@code RETRY}); {@code max_attempts} and {@code retry} are what the job
	 * stored (its own policy fields), since a binding client reads back what it sent;
	 * envelope extras kept in {@code meta} ({@link #UNKNOWN_FIELDS}, times as sent) are shown
	 * where they were sent.</li>
	 * <li>{@link #ADMIN} (ojs-admin-api.md §7, the dashboard): timestamps as stored (full
	 * precision); every field is written, {@code null} when it has no value, so the
	 * dashboard's tables have fixed columns; error codes in lowercase; the effective retry
	 * policy and where each field comes from, which an operator needs; {@code meta} as
	 * stored.</li>
	 * </ul>
	 * The actuator and {@code JobInfo} write camelCase records through the application's
	 * {@link JsonMapper}, with the stored JSON as values ({@link #parse}).
	 */
	public enum Surface {

		/** The HTTP binding. */
		BINDING,

		/** The Admin API and the dashboard. */
		ADMIN;

		/** The instant as this surface writes it, or {@code null}. */
		public @Nullable String time(@Nullable Instant instant) {
			if (instant == null) {
				return null;
			}
			return (this == BINDING) ? MILLIS.format(instant) : instant.toString();
		}

		String code(ErrorEntry entry) {
			return (this == BINDING) ? entry.code().name() : entry.code().name().toLowerCase(Locale.ROOT);
		}

	}

	private final JsonMapper jsonMapper;

	public JobJson(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/** A time as the binding writes it: RFC 3339 UTC with milliseconds, or {@code null}. */
	public static @Nullable String timestamp(@Nullable Instant instant) {
		return Surface.BINDING.time(instant);
	}

	/** The worker id of a reservation: an external worker's own id, or the node's. */
	public static String workerId(String lockedBy) {
		return lockedBy.startsWith(RemoteAttempts.OWNER_PREFIX) ? lockedBy.substring(RemoteAttempts.OWNER_PREFIX.length())
				: lockedBy;
	}

	/**
	 * The binding's {@code Job} object; {@code now} gives {@code retry_delay_ms}: the retry
	 * spec's {@code next_retry_at} with the binding's {@code next_attempt_at} and
	 * {@code retry_delay_ms} (spec README decision 5), error entries with {@code occurred_at}
	 * (decision 7).
	 */
	public Map<String, Object> job(Job job, Instant now) {
		return job(job, null, now);
	}

	/** {@link #job(Job, Instant)} with the job's {@code result} (JSON, spec README decision 28) when it has one. */
	public Map<String, Object> job(Job job, @Nullable String resultJson, Instant now) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("id", job.id());
		json.put("type", job.type());
		json.put("state", job.stateAt(now).value());
		json.put("queue", job.queue());
		json.put("args", this.jsonMapper.readTree(job.argsJson()));
		JsonNode meta = this.jsonMapper.readTree(job.metaJson());
		JsonNode unknown = meta.isObject() ? ((ObjectNode) meta).remove(UNKNOWN_FIELDS) : null;
		JsonNode scheduledAsSent = meta.isObject() ? ((ObjectNode) meta).remove(SCHEDULED_AT_AS_SENT) : null;
		JsonNode expiresAsSent = meta.isObject() ? ((ObjectNode) meta).remove(EXPIRES_AT_AS_SENT) : null;
		json.put("meta", meta);
		json.put("priority", job.priority());
		json.put("attempt", job.attempt());
		json.put("max_attempts", job.maxAttempts());
		// openapi.yaml Job: the job's own timeouts, in milliseconds, as enqueued (decision 2)
		if (job.timeout() != null) {
			json.put("timeout_ms", job.timeout().toMillis());
		}
		if (job.visibilityTimeout() != null) {
			json.put("visibility_timeout_ms", job.visibilityTimeout().toMillis());
		}
		if (!job.retryPolicy().isEmpty()) {
			json.put("retry", this.jsonMapper.readTree(job.retryPolicy().toJson()));
		}
		put(json, "created_at", job.createdAt());
		put(json, "enqueued_at", job.enqueuedAt());
		if (job.stateAt(now) == JobState.SCHEDULED) {
			if (scheduledAsSent != null && scheduledAsSent.isString()) {
				json.put("scheduled_at", scheduledAsSent.stringValue());
			}
			else {
				put(json, "scheduled_at", job.scheduledAt());
			}
		}
		if (expiresAsSent != null && expiresAsSent.isString()) {
			json.put("expires_at", expiresAsSent.stringValue());
		}
		else {
			put(json, "expires_at", job.expiresAt());
		}
		put(json, "started_at", job.startedAt());
		put(json, "completed_at", job.completedAt());
		// a cancellation is stored as the job's discarded time
		put(json, (job.state() == JobState.CANCELLED) ? "cancelled_at" : "discarded_at", job.discardedAt());
		Instant nextRetryAt = job.nextRetryAt();
		if (nextRetryAt != null) {
			put(json, "next_retry_at", nextRetryAt);
			put(json, "next_attempt_at", nextRetryAt);
			json.put("retry_delay_ms", Math.max(0, Duration.between(now, nextRetryAt).toMillis()));
		}
		Duration retryDelay = job.retryDelay();
		if (retryDelay != null) {
			// an attempt after a retry: the delay the policy gave it
			json.put("retry_delay_ms", retryDelay.toMillis());
		}
		if (job.state() == JobState.ACTIVE && job.lockedBy() != null) {
			json.put("worker_id", workerId(job.lockedBy()));
			put(json, "visibility_expires_at", job.lockedUntil());
		}
		if (job.deadLetter()) {
			json.put("dead_letter", true);
		}
		ErrorEntry last = job.currentError();
		if (last != null) {
			json.put("error", error(last, Surface.BINDING));
		}
		List<Map<String, Object>> errors = new ArrayList<>();
		job.errors().forEach((entry) -> errors.add(error(entry, Surface.BINDING)));
		json.put("errors", errors);
		if (resultJson != null) {
			json.put("result", this.jsonMapper.readTree(resultJson));
		}
		if (job.workflowId() != null) {
			json.put("workflow_id", job.workflowId());
		}
		if (job.parentResultsJson() != null) {
			// spec README decision 28: an array, element i the result of step i (or of a batch's job i)
			json.put("parent_results", this.jsonMapper.readTree(job.parentResultsJson()));
		}
		if (unknown != null && unknown.isObject()) {
			unknown.properties().forEach((entry) -> json.putIfAbsent(entry.getKey(), entry.getValue()));
		}
		return json;
	}

	private static void put(Map<String, Object> json, String name, @Nullable Instant instant) {
		if (instant != null) {
			json.put(name, timestamp(instant));
		}
	}

	/** A job in the Admin API's lists (ojs-admin-api.md §7.1). */
	public Map<String, Object> summary(Job job) {
		Surface admin = Surface.ADMIN;
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", job.id());
		view.put("type", job.type());
		view.put("queue", job.queue());
		view.put("state", job.state().value());
		view.put("priority", job.priority());
		view.put("attempt", job.attempt());
		view.put("max_attempts", job.maxAttempts());
		view.put("dead_letter", job.deadLetter());
		ErrorEntry last = job.currentError();
		if (last != null) {
			Map<String, Object> error = new LinkedHashMap<>();
			error.put("type", last.type());
			error.put("message", last.message());
			view.put("last_error", error);
		}
		else {
			view.put("last_error", null);
		}
		view.put("created_at", admin.time(job.createdAt()));
		view.put("scheduled_at", admin.time(job.scheduledAt()));
		view.put("started_at", admin.time(job.startedAt()));
		view.put("completed_at", admin.time(job.completedAt()));
		view.put("discarded_at", admin.time(job.discardedAt()));
		view.put("next_retry_at", admin.time(job.nextRetryAt()));
		return view;
	}

	/**
	 * A job's full envelope in the Admin API (ojs-admin-api.md §7.2), with its effective
	 * retry policy merged from {@code layers} (its own fields when {@code null}).
	 * @param showArgs whether {@code args} and {@code meta} are shown
	 * ({@code ojs.dashboard.show-args}), else {@code args_hidden}
	 */
	public Map<String, Object> detail(Job job, @Nullable RetryPolicyLayers layers, boolean showArgs) {
		Surface admin = Surface.ADMIN;
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", job.id());
		view.put("specversion", "1.0");
		view.put("type", job.type());
		view.put("queue", job.queue());
		if (showArgs) {
			view.put("args", parse(this.jsonMapper, job.argsJson()));
			view.put("meta", parse(this.jsonMapper, job.metaJson()));
		}
		else {
			view.put("args_hidden", true);
		}
		view.put("state", job.state().value());
		view.put("priority", job.priority());
		view.put("attempt", job.attempt());
		RetryPolicy effective = (layers != null) ? layers.effective() : job.retryPolicy();
		Integer maxAttempts = (layers != null) ? effective.maxAttempts() : null;
		view.put("max_attempts", (maxAttempts != null) ? maxAttempts : job.maxAttempts());
		view.put("dead_letter", job.deadLetter());
		view.put("timeout_ms", (job.timeout() != null) ? job.timeout().toMillis() : null);
		view.put("visibility_timeout_ms", (job.visibilityTimeout() != null) ? job.visibilityTimeout().toMillis() : null);
		view.put("retry_policy", policy(this.jsonMapper, effective));
		view.put("retry_policy_sources", (layers != null) ? layers.sources() : Map.of());
		view.put("errors", job.errors().stream().map((entry) -> error(entry, admin)).toList());
		view.put("next_retry_at", admin.time(job.nextRetryAt()));
		view.put("unique_key", job.uniqueKey());
		view.put("locked_by", job.lockedBy());
		view.put("locked_until", admin.time(job.lockedUntil()));
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("created_at", admin.time(job.createdAt()));
		metadata.put("enqueued_at", admin.time(job.enqueuedAt()));
		metadata.put("scheduled_at", admin.time(job.scheduledAt()));
		metadata.put("started_at", admin.time(job.startedAt()));
		metadata.put("completed_at", admin.time(job.completedAt()));
		metadata.put("cancelled_at", (job.state() == JobState.CANCELLED) ? admin.time(job.discardedAt()) : null);
		metadata.put("discarded_at", (job.state() == JobState.DISCARDED) ? admin.time(job.discardedAt()) : null);
		view.put("metadata", metadata);
		view.put("actions", actions(job));
		return view;
	}

	/** The Admin API's operations valid in the job's state. */
	public static List<String> actions(Job job) {
		List<String> actions = new ArrayList<>();
		if (!job.state().isTerminal()) {
			actions.add("cancel");
		}
		if (job.state() == JobState.DISCARDED || job.state() == JobState.CANCELLED) {
			actions.add("retry");
		}
		if (job.state().isTerminal()) {
			actions.add("delete");
		}
		return actions;
	}

	/** An error history entry: the retry spec's fields plus {@code occurred_at}. */
	public static Map<String, Object> error(ErrorEntry entry, Surface surface) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("attempt", entry.attempt());
		json.put("type", entry.type());
		json.put("message", entry.message());
		json.put("code", surface.code(entry));
		json.put("timestamp", surface.time(entry.timestamp()));
		json.put("occurred_at", surface.time(entry.timestamp()));
		json.put("details", entry.details());
		return json;
	}

	/**
	 * Stored JSON (args, meta, a policy) as plain values (lists, maps, strings, numbers,
	 * booleans), so that a response shows JSON structures rather than strings holding JSON,
	 * whatever technology renders it; text that is not JSON as it is, so that a damaged row
	 * can still be inspected.
	 */
	public static @Nullable Object parse(JsonMapper jsonMapper, @Nullable String json) {
		if (json == null || json.isBlank()) {
			return null;
		}
		try {
			return jsonMapper.readValue(json, Object.class);
		}
		catch (JacksonException ex) {
			return json;
		}
	}

	/** The policy as the spec's JSON object (snake_case, durations in ISO-8601), or {@code null}. */
	public static @Nullable Object policy(JsonMapper jsonMapper, @Nullable RetryPolicy policy) {
		return (policy != null) ? parse(jsonMapper, policy.toJson()) : null;
	}

	/** Writes a {@link RetryPolicy} as its spec JSON object ({@link RetryPolicy#toJson()}). */
	public static final class PolicySerializer extends ValueSerializer<RetryPolicy> {

		@Override
		public void serialize(RetryPolicy policy, JsonGenerator generator, SerializationContext context)
				throws JacksonException {
			generator.writeRawValue(policy.toJson());
		}

	}

	/** Writes a {@link JobState} as its lowercase spec value ({@link JobState#value()}). */
	public static final class StateSerializer extends ValueSerializer<JobState> {

		@Override
		public void serialize(JobState state, JsonGenerator generator, SerializationContext context)
				throws JacksonException {
			generator.writeString(state.value());
		}

	}

}

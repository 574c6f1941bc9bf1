package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.worker.RemoteAttempts;

/**
 * A stored job as the binding shows it (openapi.yaml {@code Job}): snake_case fields,
 * RFC 3339 UTC timestamps with milliseconds (ojs-http-binding.md §6.3), the retry spec's
 * {@code next_retry_at} with the binding's {@code next_attempt_at} and
 * {@code retry_delay_ms} (spec README decision 5), and error entries with
 * {@code occurred_at} (decision 7).
 */
final class JobJson {

	/**
	 * The meta key under which an enqueued envelope's unknown top-level fields are stored
	 * (L0-ENV-006); shown again as top-level fields, not in {@code meta}.
	 */
	static final String UNKNOWN_FIELDS = "ojs.unknown_fields";

	/**
	 * The meta key under which an absolute {@code scheduled_at} is kept as sent; shown as
	 * {@code scheduled_at} while the job is scheduled (spec README decision 16).
	 */
	static final String SCHEDULED_AT_AS_SENT = "ojs.scheduled_at";

	/** The meta key under which an absolute {@code expires_at} is kept as sent (decision 16). */
	static final String EXPIRES_AT_AS_SENT = "ojs.expires_at";

	private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private final JsonMapper jsonMapper;

	JobJson(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	static @Nullable String timestamp(@Nullable Instant instant) {
		return (instant != null) ? TIMESTAMP.format(instant) : null;
	}

	/** The {@code Job} object; {@code now} gives {@code retry_delay_ms}. */
	Map<String, Object> job(Job job, Instant now) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("id", job.id());
		json.put("type", job.type());
		json.put("state", job.state().value());
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
		if (!job.retryPolicy().isEmpty()) {
			json.put("retry", this.jsonMapper.readTree(job.retryPolicy().toJson()));
		}
		put(json, "created_at", job.createdAt());
		put(json, "enqueued_at", job.enqueuedAt());
		if (job.state() == JobState.SCHEDULED) {
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
		if (job.state() == JobState.ACTIVE && job.lockedBy() != null) {
			json.put("worker_id", workerId(job.lockedBy()));
			put(json, "visibility_expires_at", job.lockedUntil());
		}
		if (job.deadLetter()) {
			json.put("dead_letter", true);
		}
		ErrorEntry last = job.lastError();
		if (last != null) {
			json.put("error", error(last));
		}
		List<Map<String, Object>> errors = new ArrayList<>();
		job.errors().forEach((entry) -> errors.add(error(entry)));
		json.put("errors", errors);
		if (unknown != null && unknown.isObject()) {
			unknown.properties().forEach((entry) -> json.putIfAbsent(entry.getKey(), entry.getValue()));
		}
		return json;
	}

	/** An error history entry: the retry spec's fields plus {@code occurred_at}. */
	static Map<String, Object> error(ErrorEntry entry) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("attempt", entry.attempt());
		json.put("type", entry.type());
		json.put("message", entry.message());
		json.put("code", entry.code().name());
		json.put("timestamp", timestamp(entry.timestamp()));
		json.put("occurred_at", timestamp(entry.timestamp()));
		json.put("details", entry.details());
		return json;
	}

	/** The worker id of a reservation: an external worker's own id, or the node's. */
	static String workerId(String lockedBy) {
		return lockedBy.startsWith(RemoteAttempts.OWNER_PREFIX) ? lockedBy.substring(RemoteAttempts.OWNER_PREFIX.length())
				: lockedBy;
	}

	private static void put(Map<String, Object> json, String name, @Nullable Instant instant) {
		if (instant != null) {
			json.put(name, timestamp(instant));
		}
	}

}

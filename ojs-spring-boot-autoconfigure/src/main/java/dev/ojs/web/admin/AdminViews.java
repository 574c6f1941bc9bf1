package dev.ojs.web.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.admin.JobPage;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * The Admin API's JSON shapes (snake_case, RFC 3339 UTC instants), built as ordered maps so
 * that every field, also a {@code null} one, is written.
 */
final class AdminViews {

	private final JsonMapper jsonMapper;

	private final AdminApiSettings settings;

	AdminViews(JsonMapper jsonMapper, AdminApiSettings settings) {
		this.jsonMapper = jsonMapper;
		this.settings = settings;
	}

	static @Nullable String time(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

	/** A list response (decision 13): items, pagination and the next cursor. */
	static Map<String, Object> list(List<?> items, @Nullable Long total, boolean estimate, int perPage,
			@Nullable String nextCursor) {
		Map<String, Object> pagination = new LinkedHashMap<>();
		pagination.put("total", total);
		pagination.put("total_is_estimate", estimate);
		pagination.put("page", 1);
		pagination.put("per_page", perPage);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("items", items);
		body.put("pagination", pagination);
		body.put("next_cursor", nextCursor);
		return body;
	}

	Map<String, Object> page(JobPage page, int perPage) {
		return list(page.items().stream().map(this::summary).toList(), page.total(), page.totalIsEstimate(), perPage,
				(page.next() != null) ? page.next().encode() : null);
	}

	/** A job in lists (ojs-admin-api.md §7.1). */
	Map<String, Object> summary(Job job) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", job.id());
		view.put("type", job.type());
		view.put("queue", job.queue());
		view.put("state", job.state().value());
		view.put("priority", job.priority());
		view.put("attempt", job.attempt());
		view.put("max_attempts", job.maxAttempts());
		view.put("dead_letter", job.deadLetter());
		ErrorEntry last = job.lastError();
		if (last != null) {
			Map<String, Object> error = new LinkedHashMap<>();
			error.put("type", last.type());
			error.put("message", last.message());
			view.put("last_error", error);
		}
		else {
			view.put("last_error", null);
		}
		view.put("created_at", time(job.createdAt()));
		view.put("scheduled_at", time(job.scheduledAt()));
		view.put("started_at", time(job.startedAt()));
		view.put("completed_at", time(job.completedAt()));
		view.put("discarded_at", time(job.discardedAt()));
		view.put("next_retry_at", time(job.nextRetryAt()));
		return view;
	}

	/** A job's full envelope (ojs-admin-api.md §7.2), with its effective retry policy. */
	Map<String, Object> detail(Job job, @Nullable RetryPolicyLayers layers) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", job.id());
		view.put("specversion", "1.0");
		view.put("type", job.type());
		view.put("queue", job.queue());
		if (this.settings.showArgs()) {
			view.put("args", parse(job.argsJson()));
			view.put("meta", parse(job.metaJson()));
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
		view.put("retry_policy", parse(effective.toJson()));
		view.put("retry_policy_sources", (layers != null) ? layers.sources() : Map.of());
		view.put("errors", job.errors().stream().map(AdminViews::error).toList());
		view.put("next_retry_at", time(job.nextRetryAt()));
		view.put("unique_key", job.uniqueKey());
		view.put("locked_by", job.lockedBy());
		view.put("locked_until", time(job.lockedUntil()));
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("created_at", time(job.createdAt()));
		metadata.put("enqueued_at", time(job.enqueuedAt()));
		metadata.put("scheduled_at", time(job.scheduledAt()));
		metadata.put("started_at", time(job.startedAt()));
		metadata.put("completed_at", time(job.completedAt()));
		metadata.put("cancelled_at", (job.state() == JobState.CANCELLED) ? time(job.discardedAt()) : null);
		metadata.put("discarded_at", (job.state() == JobState.DISCARDED) ? time(job.discardedAt()) : null);
		view.put("metadata", metadata);
		view.put("actions", actions(job));
		return view;
	}

	/** The operations valid in the job's state. */
	static List<String> actions(Job job) {
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

	private static Map<String, Object> error(ErrorEntry entry) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("attempt", entry.attempt());
		view.put("type", entry.type());
		view.put("message", entry.message());
		view.put("code", entry.code().name().toLowerCase(Locale.ROOT));
		view.put("timestamp", time(entry.timestamp()));
		view.put("occurred_at", time(entry.timestamp()));
		view.put("details", entry.details());
		return view;
	}

	/** A queue (ojs-admin-api.md §6.1); throughput from the last minutes' statistics. */
	static Map<String, Object> queue(QueueSummary queue, @Nullable StatsBucket recent, int minutes, Instant now) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", queue.name());
		view.put("state", queue.paused() ? "paused" : "active");
		view.put("paused", queue.paused());
		view.put("paused_at", time(queue.pausedAt()));
		Map<String, Object> counts = new LinkedHashMap<>();
		for (JobState state : List.of(JobState.PENDING, JobState.AVAILABLE, JobState.ACTIVE, JobState.SCHEDULED,
				JobState.RETRYABLE, JobState.COMPLETED)) {
			counts.put(state.value(), queue.count(state));
		}
		counts.put("discarded", queue.count(JobState.DISCARDED) - queue.deadLetters());
		counts.put("cancelled", queue.count(JobState.CANCELLED));
		counts.put("dead_letter", queue.deadLetters());
		view.put("counts", counts);
		view.put("counts_estimated", queue.countsEstimated());
		view.put("throughput", throughput(recent, minutes));
		view.put("oldest_available_at", time(queue.oldestAvailableAt()));
		Instant oldest = queue.oldestAvailableAt();
		view.put("latency_ms", (oldest != null) ? Math.max(0, Duration.between(oldest, now).toMillis()) : null);
		return view;
	}

	static Map<String, Object> throughput(@Nullable StatsBucket recent, int minutes) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("processed_per_minute", (recent != null) ? (double) recent.processed() / minutes : 0.0);
		view.put("failed_per_minute", (recent != null) ? (double) recent.failed() / minutes : 0.0);
		return view;
	}

	static Map<String, Object> bucket(StatsBucket bucket) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("timestamp", time(bucket.start()));
		view.put("completed", bucket.completed());
		view.put("failed", bucket.failed());
		view.put("retried", bucket.retried());
		view.put("dead_lettered", bucket.deadLettered());
		view.put("discarded", bucket.discarded());
		view.put("processed", bucket.processed());
		return view;
	}

	/** Stored JSON as plain values; text that is not JSON as it is. */
	@Nullable Object parse(@Nullable String json) {
		if (json == null || json.isBlank()) {
			return null;
		}
		try {
			return this.jsonMapper.readValue(json, Object.class);
		}
		catch (JacksonException ex) {
			return json;
		}
	}

}

package dev.ojs.web.admin;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.admin.JobPage;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.Job;
import dev.ojs.json.JobJson;
import dev.ojs.json.QueueJson;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * The Admin API's JSON shapes (snake_case, RFC 3339 UTC instants), built as ordered maps so
 * that every field, also a {@code null} one, is written: the list envelope and statistics
 * here; a job as {@link JobJson} and a queue as {@link QueueJson} write them.
 */
final class AdminViews {

	private final JobJson jobJson;

	private final AdminApiSettings settings;

	AdminViews(JsonMapper jsonMapper, AdminApiSettings settings) {
		this.jobJson = new JobJson(jsonMapper);
		this.settings = settings;
	}

	static @Nullable String time(@Nullable Instant instant) {
		return JobJson.Surface.ADMIN.time(instant);
	}

	/**
	 * Checks a configuration body: it sets at least one of the {@code configurable} fields
	 * ({@code 400} naming {@code field} otherwise, saying {@code missing}) and no other
	 * ({@code 422 unsupported} naming it); {@code names} lists them for the message.
	 * @return {@code body}
	 */
	static Map<String, Object> configuration(@Nullable Map<String, Object> body, Set<String> configurable,
			String names, String field, String missing) {
		if (body == null || configurable.stream().noneMatch(body::containsKey)) {
			throw ApiException.invalidRequest(missing, Map.of("field", field));
		}
		for (String given : body.keySet()) {
			if (!configurable.contains(given)) {
				throw new ApiException(422, ApiError.UNSUPPORTED, "Only " + names + " can be configured here; '" + given
						+ "' cannot", false, Map.of("field", given));
			}
		}
		return body;
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

	/** A page of jobs, each as {@link #summary(Job)}. */
	Map<String, Object> page(JobPage page, int perPage) {
		return list(page.items().stream().map(this::summary).toList(), page.total(), page.totalIsEstimate(), perPage,
				(page.next() != null) ? page.next().encode() : null);
	}

	/** A job in lists (ojs-admin-api.md §7.1): {@link JobJson#summary(Job)}. */
	Map<String, Object> summary(Job job) {
		return this.jobJson.summary(job);
	}

	/** A job's full envelope (ojs-admin-api.md §7.2), {@code args} as {@code ojs.dashboard.show-args} says. */
	Map<String, Object> detail(Job job, @Nullable RetryPolicyLayers layers) {
		return this.jobJson.detail(job, layers, this.settings.showArgs());
	}

	static Map<String, Object> throughput(@Nullable StatsBucket recent, int minutes) {
		return QueueJson.throughput(recent, minutes);
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

}

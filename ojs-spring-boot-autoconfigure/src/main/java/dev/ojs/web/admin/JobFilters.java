package dev.ojs.web.admin;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.JobQuery;
import dev.ojs.admin.PageCursor;
import dev.ojs.job.JobState;
import dev.ojs.spring.OjsJobs;
import dev.ojs.web.ApiException;
import dev.ojs.web.QueueNames;

/**
 * Reads the Admin API's job filters (ojs-admin-api.md §7.1, §8) from query parameters or a
 * bulk request's {@code filter} object into a {@link JobQuery}; refuses bad values with
 * {@code 400 invalid_request}.
 */
final class JobFilters {

	static final int DEFAULT_PAGE = 20;

	private JobFilters() {
	}

	/** A filter from request values; {@code null} and blank values match all. */
	static JobQuery query(@Nullable String state, @Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable String since, @Nullable String until, @Nullable String id) {
		JobQuery query = JobQuery.ALL;
		boolean prefix = false;
		String exactType = blankToNull(type);
		if (exactType != null && exactType.endsWith("*")) {
			prefix = true;
			exactType = exactType.substring(0, exactType.length() - 1);
		}
		String jobId = blankToNull(id);
		if (jobId != null) {
			try {
				jobId = UUID.fromString(jobId).toString();
			}
			catch (IllegalArgumentException ex) {
				throw ApiException.invalidRequest("id must be a UUID: " + id, Map.of("parameter", "id"));
			}
		}
		String queueName = QueueNames.checkOptional(blankToNull(queue), "queue");
		query = new JobQuery(null, null, queueName, exactType, prefix, blankToNull(errorType),
				instant("since", since), instant("until", until), jobId, null, DEFAULT_PAGE, false);
		return withState(query, state);
	}

	/** The query restricted to a state; {@code dead_letter} selects dead letters, {@code discarded} the others. */
	static JobQuery withState(JobQuery query, @Nullable String state) {
		String value = blankToNull(state);
		if (value == null) {
			return query;
		}
		if (value.equals("dead_letter")) {
			return query.withState(JobState.DISCARDED, true);
		}
		try {
			JobState parsed = JobState.fromValue(value);
			return query.withState(parsed, (parsed == JobState.DISCARDED) ? Boolean.FALSE : null);
		}
		catch (IllegalArgumentException ex) {
			throw ApiException.invalidRequest("Unknown state '" + value + "'", Map.of("parameter", "state"));
		}
	}

	/** The page of a list request: cursor, {@code per_page} (1 to 100) and order. */
	static JobQuery page(JobQuery query, @Nullable String cursor, @Nullable Integer perPage, @Nullable String order) {
		int size = (perPage != null) ? perPage : DEFAULT_PAGE;
		if (size < 1 || size > OjsJobs.MAX_PAGE) {
			throw ApiException.invalidRequest("per_page must be between 1 and " + OjsJobs.MAX_PAGE,
					Map.of("parameter", "per_page"));
		}
		boolean ascending = "asc".equalsIgnoreCase(order);
		if (order != null && !ascending && !"desc".equalsIgnoreCase(order)) {
			throw ApiException.invalidRequest("order must be asc or desc", Map.of("parameter", "order"));
		}
		PageCursor after = null;
		if (blankToNull(cursor) != null) {
			try {
				after = PageCursor.decode(cursor);
			}
			catch (IllegalArgumentException ex) {
				throw ApiException.invalidRequest(ex.getMessage(), Map.of("parameter", "cursor"));
			}
		}
		return new JobQuery(query.state(), query.deadLetter(), query.queue(), query.type(), query.typePrefix(),
				query.errorType(), query.since(), query.until(), query.id(), after, size, ascending);
	}

	/** A bulk request's {@code filter} object. */
	static JobQuery fromBody(@Nullable Object filter) {
		if (filter == null) {
			return JobQuery.ALL;
		}
		if (!(filter instanceof Map<?, ?> map)) {
			throw ApiException.invalidRequest("filter must be an object");
		}
		return query(text(map, "state"), text(map, "queue"), text(map, "type"), text(map, "error_type"),
				text(map, "since"), text(map, "until"), text(map, "id"));
	}

	static @Nullable String text(Map<?, ?> map, String key) {
		Object value = map.get(key);
		if (value == null || value instanceof String) {
			return (String) value;
		}
		throw ApiException.invalidRequest(key + " must be a string", Map.of("field", key));
	}

	static @Nullable Instant instant(String name, @Nullable String value) {
		String text = blankToNull(value);
		if (text == null) {
			return null;
		}
		try {
			return OffsetDateTime.parse(text).toInstant();
		}
		catch (DateTimeParseException ex) {
			throw ApiException.invalidRequest(name + " must be an RFC 3339 timestamp: " + text,
					Map.of("parameter", name));
		}
	}

	static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}

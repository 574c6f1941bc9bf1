package dev.ojs.web.admin;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.JobQuery;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsValidationException;
import dev.ojs.web.ApiException;

/**
 * Turns the Admin API's job filters (ojs-admin-api.md §7.1, §8), from query parameters or a
 * bulk request's {@code filter} object, into the arguments of {@link OjsJobs#filter} and
 * {@link OjsJobs#withPage}, whose rules they are. A value refused is answered with
 * {@code 400 invalid_request} naming it as a {@code parameter}.
 */
final class JobFilters {

	/** The fields the services name that the Admin API reads as query parameters. */
	private static final Set<String> PARAMETERS = Set.of("state", "per_page", "order", "cursor", "id", "since",
			"until", "period", "type");

	private JobFilters() {
	}

	/** A filter from request values; {@code null} and blank values match all. */
	static JobQuery query(@Nullable String state, @Nullable String queue, @Nullable String type,
			@Nullable String errorType, @Nullable String since, @Nullable String until, @Nullable String id) {
		Instant from = instant("since", since);
		Instant to = instant("until", until);
		return parameters(() -> OjsJobs.filter(state, queue, type, errorType, from, to, id));
	}

	/** The page of a list request: cursor, {@code per_page} and order. */
	static JobQuery page(JobQuery query, @Nullable String cursor, @Nullable Integer perPage, @Nullable String order) {
		return parameters(() -> OjsJobs.withPage(query, cursor, perPage, order));
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

	/**
	 * The service call's result; a value it refuses that came from a query parameter is
	 * answered naming that parameter.
	 */
	static <T> T parameters(Supplier<T> call) {
		try {
			return call.get();
		}
		catch (OjsValidationException ex) {
			if (!PARAMETERS.contains(ex.getField())) {
				throw ex;
			}
			Map<String, Object> details = new LinkedHashMap<>(ex.getDetails());
			details.remove("field");
			Map<String, Object> named = new LinkedHashMap<>();
			named.put("parameter", ex.getField());
			named.putAll(details);
			throw ApiException.invalidRequest(String.valueOf(ex.getMessage()), named);
		}
	}

	static @Nullable String text(Map<?, ?> map, String key) {
		Object value = map.get(key);
		if (value == null || value instanceof String) {
			return (String) value;
		}
		throw ApiException.invalidRequest(key + " must be a string", Map.of("field", key));
	}

	/** An RFC 3339 timestamp of the request; {@code null} and blank are none. */
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

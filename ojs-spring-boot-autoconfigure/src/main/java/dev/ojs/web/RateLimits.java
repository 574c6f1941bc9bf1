package dev.ojs.web;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.RateLimit;

/**
 * A queue's rate limit on the wire, for the HTTP binding and the Admin API: read from
 * ojs-queue-config.md's {@code {"limit": 100, "period": "PT1M"}} or openapi.yaml's
 * {@code {"max_per_second": 10}}; written by {@link dev.ojs.json.QueueJson#rateLimit}.
 */
public final class RateLimits {

	private RateLimits() {
	}

	/**
	 * Reads a rate limit from a JSON object (as a map).
	 * @param field the field's name in the request, for the error
	 * @throws ApiException {@code 400 invalid_request} naming the field
	 */
	public static RateLimit read(@Nullable Object value, String field) {
		if (!(value instanceof Map<?, ?> map)) {
			throw invalid(field, "The '" + field + "' field must be an object with 'limit' and 'period', or 'max_per_second'.");
		}
		Object perSecond = map.get("max_per_second");
		Object limit = map.get("limit");
		Object period = map.get("period");
		try {
			if (perSecond != null && limit == null && period == null) {
				return RateLimit.perSecond(positiveInt(perSecond, field + ".max_per_second"));
			}
			if (perSecond == null && limit != null && period instanceof String text) {
				return new RateLimit(positiveInt(limit, field + ".limit"), Duration.parse(text));
			}
		}
		catch (DateTimeParseException | IllegalArgumentException ex) {
			throw invalid(field + ".period", "The '" + field + ".period' field must be an ISO-8601 duration from PT0.001S to P1D.");
		}
		throw invalid(field, "The '" + field + "' field must have 'limit' (an integer) and 'period' (an ISO-8601"
				+ " duration), or 'max_per_second' alone.");
	}

	private static int positiveInt(Object value, String field) {
		if (value instanceof Integer number && number >= 1) {
			return number;
		}
		throw invalid(field, "The '" + field + "' field must be an integer from 1 to " + Integer.MAX_VALUE + ".");
	}

	private static ApiException invalid(String field, String message) {
		return ApiException.invalidRequest(message, Map.of("field", field));
	}

}

package dev.ojs.web.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * A retry policy as a client of the binding sends it, turned into the retry spec's JSON
 * (spec README decision 2): {@code *_ms} integers are accepted as aliases of the ISO-8601
 * durations, {@code backoff_type} as an alias of {@code backoff_strategy}. An invalid
 * policy is {@code 422 validation_error} with
 * {@code details.validation_code = "validation.retry_policy_invalid"} naming the field
 * (decision 3).
 */
final class RetryJson {

	private static final Map<String, String> MILLIS_ALIASES = Map.of("initial_interval_ms", "initial_interval",
			"max_interval_ms", "max_interval");

	private RetryJson() {
	}

	/** The policy as the retry spec's snake_case JSON. */
	static String toSpec(JsonNode policy, String field) {
		if (!policy.isObject()) {
			throw invalid(field, policy.getNodeType().name().toLowerCase(java.util.Locale.ROOT),
					"The retry policy must be a JSON object.");
		}
		ObjectNode spec = ((ObjectNode) policy).objectNode();
		for (Map.Entry<String, JsonNode> entry : policy.properties()) {
			String name = entry.getKey();
			JsonNode value = entry.getValue();
			String iso = MILLIS_ALIASES.get(name);
			if (iso != null) {
				if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
					throw invalid(field + "." + name, value.toString(), "'" + name + "' must be a non-negative integer.");
				}
				if (policy.has(iso)) {
					throw invalid(field + "." + name, value.toString(), "'" + name + "' and '" + iso + "' are both set.");
				}
				spec.put(iso, Duration.ofMillis(value.longValue()).toString());
			}
			else if (name.equals("backoff_type")) {
				if (policy.has("backoff_strategy")) {
					throw invalid(field + "." + name, value.toString(), "'backoff_type' and 'backoff_strategy' are both set.");
				}
				spec.set("backoff_strategy", value);
			}
			else {
				spec.set(name, value);
			}
		}
		return spec.toString();
	}

	/** The 422 of an invalid retry policy (decision 3). */
	static ApiException invalid(RetryPolicyValidationException ex, String prefix) {
		return invalid(prefix + "." + ex.field(), String.valueOf(ex.value()), ex.getMessage());
	}

	private static ApiException invalid(String field, String value, String message) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("validation_code", RetryPolicyValidationException.ERROR_TYPE);
		details.put("field", field);
		details.put("value", value);
		return new ApiException(422, ApiError.VALIDATION_ERROR, "Invalid retry policy field '" + field + "': " + message,
				false, details);
	}

}

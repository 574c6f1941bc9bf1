package dev.ojs.spring.actuate;

import dev.ojs.retry.RetryPolicy;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns the JSON a job stores (args, meta, retry policy) into plain values (lists, maps,
 * strings, numbers, booleans) so that endpoint responses show them as JSON structures
 * rather than as strings holding JSON, whatever technology (HTTP or JMX) renders them.
 */
final class JsonValues {

	private static final JsonMapper jsonMapper = JsonMapper.builder().build();

	private JsonValues() {
	}

	/**
	 * Parses stored JSON; a value that is not valid JSON is returned as it is, so that a
	 * damaged row can still be inspected.
	 * @param json the stored JSON, may be {@code null}
	 * @return the parsed value, or {@code null}
	 */
	static @Nullable Object parse(@Nullable String json) {
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

	/**
	 * The policy as the spec's JSON object (snake_case fields, durations as ISO-8601).
	 * @param policy the policy, may be {@code null}
	 * @return the policy's fields, or {@code null}
	 */
	static @Nullable Object policy(@Nullable RetryPolicy policy) {
		return (policy != null) ? parse(policy.toJson()) : null;
	}

}

package dev.ojs.spring.actuate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.json.JobJson;
import dev.ojs.retry.RetryPolicy;

/**
 * The stored JSON of a job (args, meta, retry policy) as plain values for the endpoints'
 * descriptors ({@link JobJson#parse}), read with a plain {@link JsonMapper} so that HTTP and
 * JMX render them alike.
 */
final class JsonValues {

	private static final JsonMapper jsonMapper = JsonMapper.builder().build();

	private JsonValues() {
	}

	/** {@link JobJson#parse} with the endpoints' mapper. */
	static @Nullable Object parse(@Nullable String json) {
		return JobJson.parse(jsonMapper, json);
	}

	/** {@link JobJson#policy} with the endpoints' mapper. */
	static @Nullable Object policy(@Nullable RetryPolicy policy) {
		return JobJson.policy(jsonMapper, policy);
	}

}

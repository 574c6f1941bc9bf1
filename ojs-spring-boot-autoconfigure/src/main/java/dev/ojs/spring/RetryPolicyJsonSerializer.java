package dev.ojs.spring;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

import dev.ojs.retry.RetryPolicy;

/**
 * Writes a {@link RetryPolicy} as its spec JSON object ({@link RetryPolicy#toJson()}), so
 * that a {@link JobInfo} serialises the way the spec spells policies.
 */
final class RetryPolicyJsonSerializer extends ValueSerializer<RetryPolicy> {

	@Override
	public void serialize(RetryPolicy policy, JsonGenerator generator, SerializationContext context)
			throws JacksonException {
		generator.writeRawValue(policy.toJson());
	}

}

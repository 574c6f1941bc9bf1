package dev.ojs.spring;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;

/**
 * The Jackson serializers of {@link JobInfo}'s components, so that a job serialises the way
 * the spec (and the actuator) spell it. They live here so that {@code dev.ojs.job} and
 * {@code dev.ojs.retry} stay free of Jackson annotations.
 */
final class JobInfoSerializers {

	private JobInfoSerializers() {
	}

	/** Writes a {@link RetryPolicy} as its spec JSON object ({@link RetryPolicy#toJson()}). */
	static final class RetryPolicyValue extends ValueSerializer<RetryPolicy> {

		@Override
		public void serialize(RetryPolicy policy, JsonGenerator generator, SerializationContext context)
				throws JacksonException {
			generator.writeRawValue(policy.toJson());
		}

	}

	/** Writes a {@link JobState} as its lowercase spec value ({@link JobState#value()}). */
	static final class StateValue extends ValueSerializer<JobState> {

		@Override
		public void serialize(JobState state, JsonGenerator generator, SerializationContext context)
				throws JacksonException {
			generator.writeString(state.value());
		}

	}

}

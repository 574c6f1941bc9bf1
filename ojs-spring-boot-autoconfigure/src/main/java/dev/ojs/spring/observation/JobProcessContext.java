package dev.ojs.spring.observation;

import java.util.Map;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;

import dev.ojs.spring.JobContext;

/**
 * The context of a {@link OjsObservationDocumentation#JOB_PROCESS process} observation: one
 * attempt of a job. Its carrier is the job's {@code meta} (its string fields), from which
 * the tracing handler reads the trace context stored at enqueue (DT-002).
 */
public class JobProcessContext extends ReceiverContext<Map<String, String>> {

	private final JobContext job;

	private @Nullable Outcome outcome;

	/**
	 * @param job the running attempt
	 * @param meta the job's {@code meta} fields whose values are strings
	 */
	public JobProcessContext(JobContext job, Map<String, String> meta) {
		super((carrier, key) -> carrier.get(key), Kind.CONSUMER);
		setCarrier(Map.copyOf(meta));
		this.job = job;
	}

	/** The running attempt. */
	public JobContext getJob() {
		return this.job;
	}

	/** What the handler did, once it returned or threw. */
	public @Nullable Outcome getOutcome() {
		return this.outcome;
	}

	public void setOutcome(Outcome outcome) {
		this.outcome = outcome;
	}

	/** What the handler of an attempt did. */
	public enum Outcome {

		/** It returned: the job completed. */
		SUCCESS("success"),

		/** It threw: the retry policy decides what follows. */
		FAILURE("failure");

		private final String value;

		Outcome(String value) {
			this.value = value;
		}

		/** The value of the {@code ojs.job.outcome} key. */
		public String value() {
			return this.value;
		}

	}

}

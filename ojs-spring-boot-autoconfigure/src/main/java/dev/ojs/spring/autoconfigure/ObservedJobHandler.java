package dev.ojs.spring.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.spring.observation.DefaultJobProcessObservationConvention;
import dev.ojs.spring.observation.JobProcessContext;
import dev.ojs.spring.observation.JobProcessContext.Outcome;
import dev.ojs.spring.observation.JobProcessObservationConvention;
import dev.ojs.spring.observation.OjsObservationDocumentation;
import dev.ojs.worker.Attempt;
import dev.ojs.worker.JobHandler;

/**
 * Runs a handler with the job's id, type and attempt in the logging MDC and, with an
 * observation registry, inside a {@link OjsObservationDocumentation#JOB_PROCESS process
 * observation} that continues the trace context stored in the job's {@code meta} at enqueue
 * (ojs-distributed-tracing.md §6.1). The MDC keys are removed when the handler returns.
 */
final class ObservedJobHandler implements JobHandler {

	/** MDC key of the running job's id. */
	static final String MDC_JOB_ID = "ojs.job.id";

	/** MDC key of the running job's type. */
	static final String MDC_JOB_TYPE = "ojs.job.type";

	/** MDC key of the running attempt (1-based). */
	static final String MDC_JOB_ATTEMPT = "ojs.job.attempt";

	private final JobHandler delegate;

	private final ObservationRegistry registry;

	private final @Nullable JobProcessObservationConvention convention;

	private final JsonMapper jsonMapper;

	ObservedJobHandler(JobHandler delegate, ObservationRegistry registry,
			@Nullable JobProcessObservationConvention convention, JsonMapper jsonMapper) {
		this.delegate = delegate;
		this.registry = registry;
		this.convention = convention;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void handle(Attempt attempt) throws Exception {
		if (this.registry.isNoop()) {
			runWithMdc(attempt);
			return;
		}
		JobProcessContext context = new JobProcessContext(new AttemptJobContext(attempt),
				stringFields(attempt.job().metaJson()));
		OjsObservationDocumentation.JOB_PROCESS
			.observation(this.convention, DefaultJobProcessObservationConvention.INSTANCE, () -> context,
					this.registry)
			.observeChecked(() -> {
				try {
					runWithMdc(attempt);
					context.setOutcome(Outcome.SUCCESS);
				}
				catch (Throwable ex) {
					context.setOutcome(Outcome.FAILURE);
					throw ex;
				}
			});
	}

	private void runWithMdc(Attempt attempt) throws Exception {
		Job job = attempt.job();
		MDC.put(MDC_JOB_ID, job.id());
		MDC.put(MDC_JOB_TYPE, job.type());
		MDC.put(MDC_JOB_ATTEMPT, Integer.toString(job.attempt()));
		try {
			this.delegate.handle(attempt);
		}
		finally {
			MDC.remove(MDC_JOB_ID);
			MDC.remove(MDC_JOB_TYPE);
			MDC.remove(MDC_JOB_ATTEMPT);
		}
	}

	/**
	 * The string fields of the job's {@code meta}, where the trace context is; none when it
	 * cannot be read (tracing must not fail the job).
	 */
	private Map<String, String> stringFields(String metaJson) {
		if (metaJson.length() <= 2) {
			return Map.of();
		}
		Map<String, String> fields = new LinkedHashMap<>();
		try {
			for (Map.Entry<String, JsonNode> field : this.jsonMapper.readTree(metaJson).properties()) {
				if (field.getValue().isString()) {
					fields.put(field.getKey(), field.getValue().stringValue());
				}
			}
		}
		catch (JacksonException ex) {
			return Map.of();
		}
		return fields;
	}

	@Override
	public String toString() {
		return this.delegate.toString();
	}

}

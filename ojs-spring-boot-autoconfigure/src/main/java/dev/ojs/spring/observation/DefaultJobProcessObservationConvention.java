package dev.ojs.spring.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import dev.ojs.job.WorkflowPlace;
import dev.ojs.spring.JobContext;
import dev.ojs.spring.observation.JobProcessContext.Outcome;
import dev.ojs.spring.observation.OjsObservationDocumentation.CommonKeyNames;
import dev.ojs.spring.observation.OjsObservationDocumentation.ProcessKeyNames;

/**
 * The default {@link JobProcessObservationConvention}: observation {@value #NAME}, span
 * {@code <queue> process}, low-cardinality keys {@code messaging.system},
 * {@code ojs.job.type}, {@code ojs.job.queue}, {@code ojs.job.outcome}
 * ({@code success} or {@code failure}) and {@code ojs.workflow.type} ({@code chain},
 * {@code group}, {@code batch}, or {@value #NO_WORKFLOW} outside a workflow),
 * high-cardinality keys {@code ojs.job.id} and {@code ojs.job.attempt}, and on a job of a
 * workflow {@code ojs.workflow.id} and {@code ojs.workflow.step} (a step's index, or a
 * callback's role) (ojs-distributed-tracing.md §4.1, §5.1, §5.2, §5.3).
 */
public class DefaultJobProcessObservationConvention implements JobProcessObservationConvention {

	/** The observation name, also the name of its timer. */
	public static final String NAME = "ojs.job.process";

	/** The {@code ojs.workflow.type} of a job outside a workflow. */
	public static final String NO_WORKFLOW = "none";

	/** The convention's instance. */
	public static final DefaultJobProcessObservationConvention INSTANCE = new DefaultJobProcessObservationConvention();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(JobProcessContext context) {
		return context.getJob().queue() + " process";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(JobProcessContext context) {
		JobContext job = context.getJob();
		Outcome outcome = context.getOutcome();
		WorkflowPlace place = job.workflowPlace();
		return KeyValues.of(KeyValue.of(CommonKeyNames.MESSAGING_SYSTEM, "ojs"),
				KeyValue.of(CommonKeyNames.JOB_TYPE, job.type()), KeyValue.of(CommonKeyNames.JOB_QUEUE, job.queue()),
				KeyValue.of(ProcessKeyNames.OUTCOME, (outcome != null) ? outcome.value() : "unknown"),
				KeyValue.of(ProcessKeyNames.WORKFLOW_TYPE, (place != null) ? place.type() : NO_WORKFLOW));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(JobProcessContext context) {
		JobContext job = context.getJob();
		KeyValues values = KeyValues.of(KeyValue.of(CommonKeyNames.JOB_ID, job.id()),
				KeyValue.of(ProcessKeyNames.ATTEMPT, Integer.toString(job.attempt())));
		String workflowId = job.workflowId();
		if (workflowId != null) {
			values = values.and(KeyValue.of(ProcessKeyNames.WORKFLOW_ID, workflowId));
		}
		WorkflowPlace place = job.workflowPlace();
		if (place != null) {
			values = values.and(KeyValue.of(ProcessKeyNames.WORKFLOW_STEP,
					place.isCallback() ? place.role() : Integer.toString(place.step())));
		}
		return values;
	}

}

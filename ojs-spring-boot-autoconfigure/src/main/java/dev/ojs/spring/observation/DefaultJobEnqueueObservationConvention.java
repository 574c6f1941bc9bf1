package dev.ojs.spring.observation;

import java.util.List;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import dev.ojs.spring.observation.OjsObservationDocumentation.CommonKeyNames;

/**
 * The default {@link JobEnqueueObservationConvention}: observation {@value #NAME}, span
 * {@code <queue> enqueue} (several jobs: {@code <queue> enqueue_batch}), keys
 * {@code messaging.system}, {@code ojs.job.type}, {@code ojs.job.queue} and, for a single
 * job, {@code ojs.job.id} (ojs-distributed-tracing.md §4.1, §5.1).
 */
public class DefaultJobEnqueueObservationConvention implements JobEnqueueObservationConvention {

	/** The observation name, also the name of its timer. */
	public static final String NAME = "ojs.job.enqueue";

	/** The convention's instance. */
	public static final DefaultJobEnqueueObservationConvention INSTANCE = new DefaultJobEnqueueObservationConvention();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(JobEnqueueContext context) {
		return queue(context) + ((context.getJobCount() > 1) ? " enqueue_batch" : " enqueue");
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(JobEnqueueContext context) {
		return KeyValues.of(KeyValue.of(CommonKeyNames.MESSAGING_SYSTEM, "ojs"),
				KeyValue.of(CommonKeyNames.JOB_TYPE, context.getType()),
				KeyValue.of(CommonKeyNames.JOB_QUEUE, queue(context)));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(JobEnqueueContext context) {
		List<String> ids = context.getJobIds();
		return (ids.size() == 1) ? KeyValues.of(KeyValue.of(CommonKeyNames.JOB_ID, ids.get(0))) : KeyValues.empty();
	}

	private static String queue(JobEnqueueContext context) {
		String queue = context.getQueue();
		return (queue != null) ? queue : "unknown";
	}

}

package dev.ojs.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and keys of {@link OjsObservationDocumentation#JOB_ENQUEUE enqueue} observations. A
 * bean of this type replaces {@link DefaultJobEnqueueObservationConvention}.
 */
public interface JobEnqueueObservationConvention extends ObservationConvention<JobEnqueueContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof JobEnqueueContext;
	}

}

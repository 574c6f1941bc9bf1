package dev.ojs.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and keys of {@link OjsObservationDocumentation#JOB_PROCESS process} observations. A
 * bean of this type replaces {@link DefaultJobProcessObservationConvention}.
 */
public interface JobProcessObservationConvention extends ObservationConvention<JobProcessContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof JobProcessContext;
	}

}

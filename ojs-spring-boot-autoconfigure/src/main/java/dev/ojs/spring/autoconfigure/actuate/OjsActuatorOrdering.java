package dev.ojs.spring.autoconfigure.actuate;

/**
 * Names of the auto-configurations that the actuator auto-configurations run after.
 */
final class OjsActuatorOrdering {

	/** The auto-configuration that defines the OJS beans (job store, registry, worker). */
	static final String OJS_AUTO_CONFIGURATION = "dev.ojs.spring.autoconfigure.OjsAutoConfiguration";

	/** The auto-configuration that defines the recurring-job beans (recurring jobs, evaluator). */
	static final String OJS_RECURRING_JOBS_AUTO_CONFIGURATION =
			"dev.ojs.spring.autoconfigure.OjsRecurringJobsAutoConfiguration";

	private OjsActuatorOrdering() {
	}

}

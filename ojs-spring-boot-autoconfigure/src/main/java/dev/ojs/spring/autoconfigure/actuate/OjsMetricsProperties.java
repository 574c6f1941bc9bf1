package dev.ojs.spring.autoconfigure.actuate;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration of the OJS Micrometer metrics. An invalid value fails start-up with a
 * message naming the property.
 */
@ConfigurationProperties("management.metrics.ojs")
public class OjsMetricsProperties implements Validator {

	/**
	 * How long one count of jobs by queue and state serves the ojs.jobs.depth gauges before
	 * the job table is counted again; 0 counts on every read of the gauges.
	 */
	private Duration depthRefreshInterval = Duration.ofSeconds(5);

	public Duration getDepthRefreshInterval() {
		return this.depthRefreshInterval;
	}

	public void setDepthRefreshInterval(Duration depthRefreshInterval) {
		this.depthRefreshInterval = depthRefreshInterval;
	}

	@Override
	public boolean supports(Class<?> clazz) {
		return OjsMetricsProperties.class.isAssignableFrom(clazz);
	}

	@Override
	public void validate(Object target, Errors errors) {
		Duration interval = ((OjsMetricsProperties) target).depthRefreshInterval;
		if (interval == null || interval.isNegative()) {
			errors.rejectValue("depthRefreshInterval", "ojs.invalid", "Invalid value '" + interval
					+ "' for property 'management.metrics.ojs.depth-refresh-interval': must not be negative");
		}
	}

}

package dev.ojs.spring.autoconfigure.actuate;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the OJS Micrometer metrics.
 */
@ConfigurationProperties("management.metrics.ojs")
public class OjsMetricsProperties {

	/**
	 * How long one count of jobs by queue and state serves the ojs.jobs.depth gauges before
	 * the job table is counted again.
	 */
	private Duration depthRefreshInterval = Duration.ofSeconds(5);

	public Duration getDepthRefreshInterval() {
		return this.depthRefreshInterval;
	}

	public void setDepthRefreshInterval(Duration depthRefreshInterval) {
		this.depthRefreshInterval = depthRefreshInterval;
	}

}

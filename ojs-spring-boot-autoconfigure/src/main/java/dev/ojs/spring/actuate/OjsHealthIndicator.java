package dev.ojs.spring.actuate;

import dev.ojs.spring.OjsJobs;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.util.Assert;

/**
 * {@link HealthIndicator} for the OJS job table: {@code DOWN}, with the error, when the
 * table cannot be read (database unreachable, table missing); {@code UP} otherwise. Each
 * check is one cheap {@link OjsJobs#checkAvailable()} probe, never a count over the table:
 * job counts are on the {@code ojs} endpoint and the {@code ojs.jobs.depth} gauges.
 */
public class OjsHealthIndicator extends AbstractHealthIndicator {

	private final OjsJobs jobs;

	/**
	 * Creates an indicator for the given jobs.
	 * @param jobs the stored jobs
	 */
	public OjsHealthIndicator(OjsJobs jobs) {
		super("OJS job table check failed");
		Assert.notNull(jobs, "'jobs' must not be null");
		this.jobs = jobs;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		this.jobs.checkAvailable();
		builder.up();
	}

}

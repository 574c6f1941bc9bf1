package dev.ojs.spring.actuate;

import dev.ojs.job.JobStore;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.util.Assert;

/**
 * {@link HealthIndicator} for the OJS job table: {@code DOWN}, with the error, when the
 * table cannot be read (database unreachable, table missing); {@code UP} otherwise. Each
 * check is one cheap {@link JobStore#checkAvailable()} probe, never a count over the table:
 * job counts are on the {@code ojs} endpoint and the {@code ojs.jobs.depth} gauges.
 */
public class OjsHealthIndicator extends AbstractHealthIndicator {

	private final JobStore jobStore;

	/**
	 * Creates an indicator for the given store.
	 * @param jobStore the job store
	 */
	public OjsHealthIndicator(JobStore jobStore) {
		super("OJS job table check failed");
		Assert.notNull(jobStore, "'jobStore' must not be null");
		this.jobStore = jobStore;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		this.jobStore.checkAvailable();
		builder.up();
	}

}

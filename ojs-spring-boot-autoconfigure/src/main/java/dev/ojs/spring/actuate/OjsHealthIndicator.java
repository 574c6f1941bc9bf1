package dev.ojs.spring.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.util.Assert;

/**
 * {@link HealthIndicator} for the OJS job table: {@code DOWN}, with the error, when the
 * table cannot be read (database unreachable, table missing); {@code UP} with the number of
 * jobs in each state otherwise.
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
		builder.up().withDetail("jobs", countByState(this.jobStore.countByQueueAndState()));
	}

	/** Counts per state over all queues, every state present, in lifecycle order. */
	private static Map<String, Long> countByState(Map<String, Map<JobState, Long>> counts) {
		Map<String, Long> byState = new LinkedHashMap<>();
		for (JobState state : JobState.values()) {
			byState.put(state.value(), 0L);
		}
		counts.values()
			.forEach((queue) -> queue.forEach((state, count) -> byState.merge(state.value(), count, Long::sum)));
		return byState;
	}

}

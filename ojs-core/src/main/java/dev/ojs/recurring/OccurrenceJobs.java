package dev.ojs.recurring;

import java.util.Map;

import dev.ojs.job.NewJob;

/**
 * Builds the ordinary job a recurring job's occurrence enqueues: queue, priority and policy as its
 * handler says unless the recurring job overrides them (ojs-cron.md §1.1).
 */
@FunctionalInterface
public interface OccurrenceJobs {

	/**
	 * @param definition the recurring job
	 * @param cronMeta metadata the job must carry over the recurring job's ({@code cron_name},
	 * {@code cron_triggered_at}: CRON-20)
	 * @param uniqueKey the job's unique key: one job per recurring job and occurrence
	 */
	NewJob job(RecurringJobDefinition definition, Map<String, Object> cronMeta, String uniqueKey);

}

package dev.ojs.cron;

import java.util.Map;

import dev.ojs.job.NewJob;

/**
 * Builds the ordinary job a schedule's tick enqueues: queue, priority and policy as its
 * handler says unless the schedule overrides them (ojs-cron.md §1.1).
 */
@FunctionalInterface
public interface TickJobs {

	/**
	 * @param schedule the schedule
	 * @param cronMeta metadata the job must carry over the schedule's ({@code cron_name},
	 * {@code cron_triggered_at}: CRON-20)
	 * @param uniqueKey the job's unique key: one job per schedule and tick
	 */
	NewJob job(Schedule schedule, Map<String, Object> cronMeta, String uniqueKey);

}

package dev.ojs.cron;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.NewJob;

/**
 * Schedules and tick jobs for the evaluator tests.
 */
final class CronFixtures {

	private static final JsonMapper json = new JsonMapper();

	/** Tick jobs as the application builds them without handlers: the schedule's fields, queue "default". */
	static final TickJobs JOBS = (schedule, cronMeta, uniqueKey) -> {
		Map<String, Object> meta = new LinkedHashMap<>(json.readValue(schedule.metaJson(), Map.class));
		meta.putAll(cronMeta);
		return new NewJob(schedule.type(), (schedule.queue() != null) ? schedule.queue() : NewJob.DEFAULT_QUEUE,
				(schedule.priority() != null) ? schedule.priority() : 0, schedule.argsJson(), json.writeValueAsString(meta),
				schedule.retry(), null, uniqueKey, 3);
	};

	private CronFixtures() {
	}

	static Schedule schedule(String name, String cron, String zone, OverlapPolicy overlap) {
		return new Schedule(name, cron, zone, "report.build", "[1]", "{\"team\":\"a\"}", null, null, null, overlap, true,
				null, "app", true);
	}

	static Schedule schedule(String name, String cron) {
		return schedule(name, cron, "UTC", OverlapPolicy.ALLOW);
	}

}

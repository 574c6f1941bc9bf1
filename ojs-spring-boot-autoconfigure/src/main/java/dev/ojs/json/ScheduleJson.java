package dev.ojs.json;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.cron.Schedule;
import dev.ojs.cron.Schedules;
import dev.ojs.cron.StoredSchedule;

/**
 * A schedule (recurring job) as JSON. The surfaces show it for different readers:
 * <ul>
 * <li>the HTTP binding ({@link #binding}, ojs-http-binding.md §13, spec README decision 14)
 * answers a client that registers schedules: both registration shapes at once (ojs-cron.md's
 * flat {@code cron}, {@code type}, {@code args}, {@code options} and openapi's
 * {@code expression} with {@code job_template}), and a {@code status};</li>
 * <li>the Admin API ({@link #admin}, ojs-cron.md §8) answers an operator: whether it is paused,
 * what its last tick did, its next five fire times and the application that owns it, without
 * the jobs' arguments;</li>
 * <li>the {@code recurringjobs} actuator endpoint shows the operator's fields and the state of
 * the last job as camelCase descriptors ({@code dev.ojs.spring.actuate.RecurringJobsEndpoint}),
 * which Spring Boot writes alike over HTTP and JMX.</li>
 * </ul>
 */
public final class ScheduleJson {

	private ScheduleJson() {
	}

	/** The binding's schedule, in both shapes. */
	public static Map<String, Object> binding(StoredSchedule stored, JsonMapper jsonMapper) {
		Schedule schedule = stored.schedule();
		Map<String, Object> options = new LinkedHashMap<>();
		if (schedule.queue() != null) {
			options.put("queue", schedule.queue());
		}
		if (schedule.priority() != null) {
			options.put("priority", schedule.priority());
		}
		if (schedule.retry() != null && !schedule.retry().isEmpty()) {
			options.put("retry", jsonMapper.readTree(schedule.retry().toJson()));
		}
		JsonNode args = jsonMapper.readTree(schedule.argsJson());
		Map<String, Object> template = new LinkedHashMap<>();
		template.put("type", schedule.type());
		template.put("args", args);
		template.put("options", options);
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", schedule.name());
		view.put("cron", schedule.cron());
		view.put("expression", schedule.cron());
		view.put("timezone", schedule.zone());
		view.put("type", schedule.type());
		view.put("args", args);
		view.put("meta", jsonMapper.readTree(schedule.metaJson()));
		view.put("options", options);
		view.put("job_template", template);
		view.put("overlap_policy", schedule.overlap().value());
		view.put("enabled", schedule.enabled());
		view.put("status", !schedule.enabled() ? "disabled" : (stored.nextRunAt() != null) ? "active" : "paused");
		view.put("created_at", JsonInstants.binding(stored.createdAt()));
		view.put("next_run_at", JsonInstants.binding(stored.nextRunAt()));
		view.put("last_run_at", JsonInstants.binding(stored.lastRunAt()));
		return view;
	}

	/**
	 * The Admin API's schedule.
	 * @param nextFireTimes its next ticks, none while disabled or paused
	 */
	public static Map<String, Object> admin(StoredSchedule stored, List<Instant> nextFireTimes) {
		Schedule schedule = stored.schedule();
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", schedule.name());
		view.put("expression", schedule.cron());
		view.put("timezone", schedule.zone());
		view.put("type", schedule.type());
		view.put("queue", schedule.queue());
		view.put("enabled", schedule.enabled());
		view.put("paused", Schedules.isPaused(stored));
		view.put("overlap", schedule.overlap().value());
		view.put("next_run_at", JsonInstants.admin(stored.nextRunAt()));
		view.put("last_run_at", JsonInstants.admin(stored.lastRunAt()));
		view.put("last_outcome", stored.lastOutcome());
		view.put("last_job_id", stored.lastJobId());
		view.put("run_count", stored.runCount());
		view.put("next_fire_times", nextFireTimes.stream().map(Instant::toString).toList());
		view.put("application", schedule.application());
		view.put("description", schedule.description());
		return view;
	}

}

package dev.ojs.json;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobs;
import dev.ojs.recurring.StoredRecurringJob;

/**
 * A recurring job (recurring job) as JSON. The surfaces show it for different readers:
 * <ul>
 * <li>the HTTP binding ({@link #binding}, ojs-http-binding.md §13, spec README decision 14)
 * answers a client that registers recurring jobs: both registration shapes at once (ojs-cron.md's
 * flat {@code cron}, {@code type}, {@code args}, {@code options} and openapi's
 * {@code expression} with {@code job_template}), and a {@code status};</li>
 * <li>the Admin API ({@link #admin}, ojs-cron.md §8) answers an operator: whether it is paused,
 * what its last occurrence did, its next five fire times and the application that owns it, without
 * the jobs' arguments;</li>
 * <li>the {@code recurringjobs} actuator endpoint shows the operator's fields and the state of
 * the last job as camelCase descriptors ({@code dev.ojs.spring.actuate.RecurringJobsEndpoint}),
 * which Spring Boot writes alike over HTTP and JMX.</li>
 * </ul>
 */
public final class RecurringJobJson {

	private RecurringJobJson() {
	}

	/** The binding's recurring job, in both shapes. */
	public static Map<String, Object> binding(StoredRecurringJob stored, JsonMapper jsonMapper) {
		RecurringJobDefinition definition = stored.definition();
		Map<String, Object> options = new LinkedHashMap<>();
		if (definition.queue() != null) {
			options.put("queue", definition.queue());
		}
		if (definition.priority() != null) {
			options.put("priority", definition.priority());
		}
		if (definition.retry() != null && !definition.retry().isEmpty()) {
			options.put("retry", jsonMapper.readTree(definition.retry().toJson()));
		}
		JsonNode args = jsonMapper.readTree(definition.argsJson());
		Map<String, Object> template = new LinkedHashMap<>();
		template.put("type", definition.type());
		template.put("args", args);
		template.put("options", options);
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", definition.name());
		view.put("cron", definition.cron());
		view.put("expression", definition.cron());
		view.put("timezone", definition.zone());
		view.put("type", definition.type());
		view.put("args", args);
		view.put("meta", jsonMapper.readTree(definition.metaJson()));
		view.put("options", options);
		view.put("job_template", template);
		view.put("overlap_policy", definition.overlap().value());
		view.put("enabled", definition.enabled());
		view.put("status", !definition.enabled() ? "disabled" : (stored.nextRunAt() != null) ? "active" : "paused");
		view.put("created_at", JobJson.Surface.BINDING.time(stored.createdAt()));
		view.put("next_run_at", JobJson.Surface.BINDING.time(stored.nextRunAt()));
		view.put("last_run_at", JobJson.Surface.BINDING.time(stored.lastRunAt()));
		return view;
	}

	/**
	 * The Admin API's recurring job.
	 * @param nextFireTimes its next occurrences, none while disabled or paused
	 */
	public static Map<String, Object> admin(StoredRecurringJob stored, List<Instant> nextFireTimes) {
		RecurringJobDefinition definition = stored.definition();
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", definition.name());
		view.put("expression", definition.cron());
		view.put("timezone", definition.zone());
		view.put("type", definition.type());
		view.put("queue", definition.queue());
		view.put("enabled", definition.enabled());
		view.put("paused", RecurringJobs.isPaused(stored));
		view.put("overlap", definition.overlap().value());
		view.put("next_run_at", JobJson.Surface.ADMIN.time(stored.nextRunAt()));
		view.put("last_run_at", JobJson.Surface.ADMIN.time(stored.lastRunAt()));
		view.put("last_outcome", stored.lastOutcome());
		view.put("last_job_id", stored.lastJobId());
		view.put("run_count", stored.runCount());
		view.put("next_fire_times", nextFireTimes.stream().map(Instant::toString).toList());
		view.put("application", definition.application());
		view.put("description", definition.description());
		return view;
	}

}

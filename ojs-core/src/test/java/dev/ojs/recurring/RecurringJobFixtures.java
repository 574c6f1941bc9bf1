package dev.ojs.recurring;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.NewJob;

/**
 * Recurring jobs and occurrence jobs for the evaluator tests.
 */
final class RecurringJobFixtures {

	private static final JsonMapper json = new JsonMapper();

	/** Occurrence jobs as the application builds them without handlers: the recurring job's fields, queue "default". */
	static final OccurrenceJobs JOBS = (definition, cronMeta, uniqueKey) -> {
		Map<String, Object> meta = new LinkedHashMap<>(json.readValue(definition.metaJson(), Map.class));
		meta.putAll(cronMeta);
		return new NewJob(definition.type(), (definition.queue() != null) ? definition.queue() : NewJob.DEFAULT_QUEUE,
				(definition.priority() != null) ? definition.priority() : 0, definition.argsJson(),
				json.writeValueAsString(meta), definition.retry(), null, uniqueKey, 3);
	};

	private RecurringJobFixtures() {
	}

	static RecurringJobDefinition definition(String name, String cron, String zone, OverlapPolicy overlap) {
		return new RecurringJobDefinition(name, cron, zone, "report.build", "[1]", "{\"team\":\"a\"}", null, null, null,
				overlap, true, null, "app", true);
	}

	static RecurringJobDefinition definition(String name, String cron) {
		return definition(name, cron, "UTC", OverlapPolicy.ALLOW);
	}

}

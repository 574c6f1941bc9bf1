package dev.ojs.spring;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.cron.Schedule;
import dev.ojs.cron.TickJobs;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * A tick's job, routed like any enqueue ({@link HandlerDirectory}): the schedule's queue and
 * priority, else its handler's (also a handler on another node); the schedule's retry fields
 * are stored as the job's own, over the handler's policy.
 */
final class RecurringTickJobs implements TickJobs {

	private final HandlerDirectory handlers;

	private final JsonMapper jsonMapper;

	RecurringTickJobs(HandlerDirectory handlers, JsonMapper jsonMapper) {
		this.handlers = handlers;
		this.jsonMapper = jsonMapper;
	}

	@Override
	@SuppressWarnings("unchecked")
	public NewJob job(Schedule schedule, Map<String, Object> cronMeta, String uniqueKey) {
		HandlerDirectory.Route route = this.handlers.route(schedule.type());
		Map<String, Object> meta = new LinkedHashMap<>(this.jsonMapper.readValue(schedule.metaJson(), Map.class));
		meta.putAll(cronMeta);
		RetryPolicy own = schedule.retry();
		RetryPolicy policy = (own != null) ? route.layers().over(RetryPolicyLayers.JOB, own).effective() : route.policy();
		return new NewJob(schedule.type(), (schedule.queue() != null) ? schedule.queue() : route.queue(),
				(schedule.priority() != null) ? schedule.priority() : route.priority(), schedule.argsJson(),
				this.jsonMapper.writeValueAsString(meta), own, null, uniqueKey, policy.maxAttempts());
	}

}

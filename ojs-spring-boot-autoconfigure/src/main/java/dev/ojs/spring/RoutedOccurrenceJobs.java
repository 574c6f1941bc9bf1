package dev.ojs.spring;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.NewJob;
import dev.ojs.recurring.OccurrenceJobs;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * An occurrence's job, routed like any enqueue ({@link HandlerDirectory}): the recurring job's queue and
 * priority, else its handler's (also a handler on another node); the recurring job's retry fields
 * are stored as the job's own, over the handler's policy.
 */
final class RoutedOccurrenceJobs implements OccurrenceJobs {

	private final HandlerDirectory handlers;

	private final JsonMapper jsonMapper;

	RoutedOccurrenceJobs(HandlerDirectory handlers, JsonMapper jsonMapper) {
		this.handlers = handlers;
		this.jsonMapper = jsonMapper;
	}

	@Override
	@SuppressWarnings("unchecked")
	public NewJob job(RecurringJobDefinition definition, Map<String, Object> cronMeta, String uniqueKey) {
		HandlerDirectory.Route route = this.handlers.route(definition.type());
		Map<String, Object> meta = new LinkedHashMap<>(this.jsonMapper.readValue(definition.metaJson(), Map.class));
		meta.putAll(cronMeta);
		RetryPolicy own = definition.retry();
		RetryPolicy policy = (own != null) ? route.layers().over(RetryPolicyLayers.JOB, own).effective() : route.policy();
		return new NewJob(definition.type(), (definition.queue() != null) ? definition.queue() : route.queue(),
				(definition.priority() != null) ? definition.priority() : route.priority(), definition.argsJson(),
				this.jsonMapper.writeValueAsString(meta), own, null, uniqueKey, policy.maxAttempts());
	}

}

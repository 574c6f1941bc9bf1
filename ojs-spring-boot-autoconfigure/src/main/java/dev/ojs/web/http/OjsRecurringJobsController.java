package dev.ojs.web.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.json.JobJson;
import dev.ojs.json.RecurringJobJson;
import dev.ojs.recurring.OverlapPolicy;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobOwnershipException;
import dev.ojs.recurring.RecurringJobValidationException;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsRecurringJobs;
import dev.ojs.spring.RecurringJob;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.QueueNames;

/**
 * Cron over HTTP (ojs-http-binding.md §13, spec README decision 14), backed by the
 * recurring jobs ({@link OjsRecurringJobs}) that {@code @OjsRecurring} methods,
 * the Admin API and the {@code recurringjobs} actuator endpoint use; the service validates
 * the name, expression and zone ({@link dev.ojs.spring.OjsValidationException}). Registration takes the flat shape of
 * ojs-cron.md ({@code cron}, {@code type}, {@code args}, {@code options}) and openapi's
 * ({@code expression}, {@code job_template}); an existing name is updated ({@code 200}),
 * a new one created ({@code 201}).
 */
@RestController
public class OjsRecurringJobsController {

	private static final String PATH = OjsHttp.BASE_PATH + "/cron";

	private final OjsRecurringJobs recurringJobs;

	private final JsonMapper jsonMapper;

	private final JobSizeLimits limits;

	public OjsRecurringJobsController(OjsRecurringJobs recurringJobs, JsonMapper jsonMapper) {
		this(recurringJobs, jsonMapper, JobSizeLimits.DEFAULTS);
	}

	/**
	 * @param limits the most the {@code args} and {@code meta} of the recurring job's jobs may hold
	 */
	public OjsRecurringJobsController(OjsRecurringJobs recurringJobs, JsonMapper jsonMapper, JobSizeLimits limits) {
		this.recurringJobs = recurringJobs;
		this.jsonMapper = jsonMapper;
		this.limits = limits;
	}

	@GetMapping(PATH)
	Map<String, Object> list() {
		List<Map<String, Object>> crons = new ArrayList<>();
		this.recurringJobs.list().forEach((definition) -> crons.add(view(definition)));
		return Map.of("crons", crons, "total", crons.size());
	}

	@GetMapping(PATH + "/{name}")
	Map<String, Object> cron(@PathVariable String name) {
		return Map.of("cron", view(find(name)));
	}

	@PostMapping(PATH)
	ResponseEntity<Map<String, Object>> register(@RequestBody(required = false) @Nullable String body) {
		JsonNode request = Bodies.object(body, this.jsonMapper);
		RecurringJob job = recurringJob(request);
		String name = Bodies.string(request, "name");
		boolean existed = this.recurringJobs.find(name).isPresent();
		StoredRecurringJob stored;
		try {
			stored = this.recurringJobs.register(job);
		}
		catch (RecurringJobOwnershipException ex) {
			throw new ApiException(409, ApiError.CONFLICT, ex.getMessage(), false, Map.of("name", name));
		}
		return ResponseEntity.status(existed ? 200 : 201).body(Map.of("cron", view(stored)));
	}

	@DeleteMapping(PATH + "/{name}")
	Map<String, Object> delete(@PathVariable String name) {
		StoredRecurringJob definition = find(name);
		if (!this.recurringJobs.remove(name)) {
			throw notFound(name);
		}
		return Map.of("cron", view(definition), "deleted", true);
	}

	private StoredRecurringJob find(String name) {
		return this.recurringJobs.find(name).orElseThrow(() -> notFound(name));
	}

	/** Both registration shapes: flat, or {@code expression} with {@code job_template}. */
	private RecurringJob recurringJob(JsonNode request) {
		String name = Bodies.string(request, "name");
		if (name.length() > RecurringJobDefinition.MAX_NAME_LENGTH) {
			throw EnqueueRequest.invalid("name", "The 'name' has at most 255 characters.", "string", request.get("name"));
		}
		boolean openapi = request.has("expression") || request.has("job_template");
		String cron = Bodies.string(request, openapi ? "expression" : "cron");
		JsonNode template = openapi ? request.get("job_template") : request;
		String templatePath = openapi ? "job_template." : "";
		if (template == null || !template.isObject()) {
			throw EnqueueRequest.invalid("job_template", "The 'job_template' field must be a JSON object.", "object",
					template);
		}
		String type = Bodies.string(template, "type");
		if (type.length() > EnqueueRequest.MAX_TYPE_LENGTH || !EnqueueRequest.TYPE.matcher(type).matches()) {
			throw EnqueueRequest.invalid(templatePath + "type", "The 'type' must be a valid job type.", "job type",
					template.get("type"));
		}
		RecurringJob job = RecurringJob.of(name, cron, type);
		String zone = Bodies.optionalString(request, "timezone", 64);
		if (zone != null) {
			job.zone(zone);
		}
		JsonNode args = template.get("args");
		if (args != null && !args.isNull()) {
			if (!args.isArray()) {
				throw EnqueueRequest.invalid(templatePath + "args", "The 'args' field must be a JSON array.", "array", args);
			}
			this.limits.checkArgs(args, templatePath + "args", this.jsonMapper);
			List<JsonNode> values = new ArrayList<>();
			args.forEach(values::add);
			job.args(values);
		}
		JsonNode meta = template.has("meta") ? template.get("meta") : request.get("meta");
		if (meta != null && !meta.isNull()) {
			if (!meta.isObject()) {
				throw EnqueueRequest.invalid("meta", "The 'meta' field must be a JSON object.", "object", meta);
			}
			this.limits.checkMeta(meta, template.has("meta") ? templatePath + "meta" : "meta", this.jsonMapper);
			Map<String, Object> values = new LinkedHashMap<>();
			meta.properties().forEach((entry) -> values.put(entry.getKey(), entry.getValue()));
			job.meta(values);
		}
		options(template.get("options"), templatePath + "options", job);
		String overlap = Bodies.optionalString(request, "overlap_policy", 32);
		if (overlap != null) {
			try {
				job.overlap(OverlapPolicy.fromValue(overlap.equals("cancel") ? "cancel_previous" : overlap));
			}
			catch (RecurringJobValidationException ex) {
				throw ApiException.invalidRequest(ex.getMessage(), Map.of("field", "overlap_policy"));
			}
		}
		return job;
	}

	private static void options(@Nullable JsonNode options, String path, RecurringJob job) {
		if (options == null || options.isNull()) {
			return;
		}
		if (!options.isObject()) {
			throw EnqueueRequest.invalid(path, "The 'options' field must be a JSON object.", "object", options);
		}
		JsonNode queue = options.get("queue");
		if (queue != null && !queue.isNull()) {
			if (!queue.isString()) {
				throw QueueNames.invalid(path + ".queue");
			}
			job.queue(QueueNames.check(queue.stringValue(), path + ".queue"));
		}
		JsonNode priority = options.get("priority");
		if (priority != null && !priority.isNull()) {
			// the range is the service's rule (JobOptionRules)
			job.priority(EnqueueRequest.integerPriority(priority, "priority"));
		}
		JsonNode retry = options.has("retry") ? options.get("retry") : options.get("retry_policy");
		if (retry != null && !retry.isNull()) {
			try {
				job.retry(RetryPolicy.parsePartial(RetryJson.toSpec(retry, path + ".retry")));
			}
			catch (RetryPolicyValidationException ex) {
				throw RetryJson.invalid(ex, path + ".retry");
			}
		}
	}

	/** A recurring job in both shapes (decision 14). */
	private Map<String, Object> view(StoredRecurringJob stored) {
		return RecurringJobJson.binding(stored, this.jsonMapper);
	}

	private static ApiException notFound(String name) {
		return new ApiException(404, ApiError.NOT_FOUND, "Cron job '" + name + "' not found.", false,
				Map.of("resource_type", "cron", "resource_id", name));
	}

}

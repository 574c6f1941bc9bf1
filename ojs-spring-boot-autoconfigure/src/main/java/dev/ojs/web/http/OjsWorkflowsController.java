package dev.ojs.web.http;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
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
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.json.WorkflowJson;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.workflow.WorkflowRole;
import dev.ojs.workflow.WorkflowType;

/**
 * Workflows over HTTP (ojs-workflows.md §9, spec README decisions 25–34): create, read and
 * cancel chains, groups and batches through {@link OjsWorkflows}. Each step is read as a job
 * of {@code POST /ojs/v1/jobs} is, under the workflow's {@code options}.
 */
@RestController
public class OjsWorkflowsController {

	private static final String PATH = OjsHttp.BASE_PATH + "/workflows";

	private final OjsWorkflows workflows;

	private final HandlerDirectory handlers;

	private final JsonMapper jsonMapper;

	private final WorkflowJson workflowJson;

	public OjsWorkflowsController(OjsWorkflows workflows, HandlerDirectory handlers, JsonMapper jsonMapper) {
		this.workflows = workflows;
		this.handlers = handlers;
		this.jsonMapper = jsonMapper;
		this.workflowJson = new WorkflowJson(jsonMapper);
	}

	/** Creates a workflow: {@code 201} with it and its {@code Location}. */
	@PostMapping(PATH)
	ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) @Nullable String body) {
		Instant now = Instant.now();
		JsonNode request = Bodies.object(body, this.jsonMapper);
		WorkflowType type = type(request.get("type"));
		String name = Bodies.optionalString(request, "name", 255);
		String field = (type == WorkflowType.CHAIN && request.get("steps") != null) || request.get("jobs") == null
				? "steps" : "jobs";
		JsonNode stepsNode = request.get(field);
		if (stepsNode == null || !stepsNode.isArray() || stepsNode.isEmpty()) {
			throw EnqueueRequest.invalid(field, "The '" + field + "' field must be a non-empty array of jobs.", "array",
					stepsNode);
		}
		// decision 18: over HTTP, as many as one batch enqueue
		OjsWorkflows.checkSize(field, stepsNode.size(), OjsWorkflows.MAX_STEPS);
		JsonNode defaults = request.get("options");
		if (defaults != null && !defaults.isNull() && !defaults.isObject()) {
			throw EnqueueRequest.invalid("options", "The 'options' field must be a JSON object.", "object", defaults);
		}
		List<OjsTemplate.Enqueue> steps = new ArrayList<>();
		for (int i = 0; i < stepsNode.size(); i++) {
			steps.add(job(stepsNode.get(i), field + "[" + i + "].", defaults, now));
		}
		Map<WorkflowRole, OjsTemplate.Enqueue> callbacks = new EnumMap<>(WorkflowRole.class);
		JsonNode callbacksNode = request.get("callbacks");
		if (callbacksNode != null && !callbacksNode.isNull()) {
			if (!callbacksNode.isObject()) {
				throw EnqueueRequest.invalid("callbacks", "The 'callbacks' field must be a JSON object.", "object",
						callbacksNode);
			}
			for (var entry : callbacksNode.properties()) {
				WorkflowRole role = callbackRole(entry.getKey());
				callbacks.put(role, job(entry.getValue(), "callbacks." + entry.getKey() + ".", defaults, now));
			}
		}
		JsonNode metadata = request.get("metadata");
		Map<String, Object> given = (metadata != null && metadata.isObject())
				? this.jsonMapper.convertValue(metadata, Map.class) : Map.of();
		String id;
		try {
			id = this.workflows.create(type, name, steps, callbacks, given);
		}
		catch (RetryPolicyValidationException ex) {
			throw RetryJson.invalid(ex, field + "[].options.retry");
		}
		return ResponseEntity.created(URI.create(PATH + "/" + id)).body(view(id));
	}

	/** The workflow with its steps and counters. */
	@GetMapping(PATH + "/{id}")
	Map<String, Object> workflow(@PathVariable String id) {
		return view(id);
	}

	/**
	 * Cancels a running workflow (decision 32): {@code 200} with it; one that ended is
	 * {@code 409 conflict}.
	 */
	@DeleteMapping(PATH + "/{id}")
	Map<String, Object> cancel(@PathVariable String id) {
		OjsWorkflows.WorkflowInfo before = this.workflows.find(id).orElseThrow(() -> notFound(id));
		if (!this.workflows.cancel(id)) {
			String state = this.workflows.find(id).map((info) -> info.workflow().state().value())
				.orElse(before.workflow().state().value());
			throw new ApiException(409, ApiError.CONFLICT, "Cannot cancel workflow in terminal state '" + state + "'.",
					false, Map.of("workflow_id", id, "current_state", state));
		}
		return view(id);
	}

	private Map<String, Object> view(String id) {
		return Map.of("workflow", this.workflowJson.workflow(this.workflows.find(id).orElseThrow(() -> notFound(id))));
	}

	/**
	 * One job of the workflow, read as an enqueue, under the workflow's options. A job that is
	 * itself a workflow is refused: workflows nest one level only (decision 25).
	 */
	private OjsTemplate.Enqueue job(JsonNode node, String path, @Nullable JsonNode defaults, Instant now) {
		if (node.isObject()) {
			for (String nested : List.of("steps", "jobs", "callbacks")) {
				if (node.get(nested) != null) {
					throw EnqueueRequest.invalid(path + nested,
							"Workflows nest one level only: a step is a job, not a workflow.", "job", node.get(nested));
				}
			}
			if (defaults != null && defaults.isObject()) {
				ObjectNode merged = ((ObjectNode) defaults).deepCopy();
				JsonNode own = node.get("options");
				if (own != null && own.isObject()) {
					merged.setAll((ObjectNode) own);
				}
				node = ((ObjectNode) node).deepCopy().set("options", merged);
			}
		}
		EnqueueRequest request = EnqueueRequest.read(node, path, now, (type) -> this.handlers.route(type).queue(),
				this.jsonMapper);
		return new OjsTemplate.Enqueue(request.type(), request.args(), request.options());
	}

	private static WorkflowType type(@Nullable JsonNode node) {
		if (node != null && node.isString()) {
			for (WorkflowType type : WorkflowType.values()) {
				if (type.value().equals(node.stringValue())) {
					return type;
				}
			}
		}
		throw EnqueueRequest.invalid("type", "The 'type' field must be chain, group or batch.", "chain|group|batch",
				node);
	}

	private static WorkflowRole callbackRole(String name) {
		for (WorkflowRole role : List.of(WorkflowRole.ON_SUCCESS, WorkflowRole.ON_FAILURE, WorkflowRole.ON_COMPLETE)) {
			if (role.value().equals(name)) {
				return role;
			}
		}
		throw EnqueueRequest.invalid("callbacks." + name, "The callbacks are on_success, on_failure and on_complete.",
				"on_success|on_failure|on_complete", null);
	}

	static ApiException notFound(String id) {
		return new ApiException(404, ApiError.NOT_FOUND, "Workflow '" + id + "' not found.", false,
				Map.of("resource_type", "workflow", "resource_id", id));
	}

}

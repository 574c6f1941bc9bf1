package dev.ojs.web.admin;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.json.WorkflowJson;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.web.ApiException;

/**
 * Workflows (extension, ojs-workflows.md) through {@link OjsWorkflows}: the list, keyset
 * paged and filtered by state and type (spec README decision 13), one workflow with its
 * steps (each with its job's times, last error and result), and its cancel (decision 32), a write the Admin API's guard refuses when read-only.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/workflows")
public class AdminWorkflowsController {

	private final OjsWorkflows workflows;

	private final WorkflowJson workflowJson;

	public AdminWorkflowsController(OjsWorkflows workflows, JsonMapper jsonMapper) {
		this.workflows = workflows;
		this.workflowJson = new WorkflowJson(jsonMapper);
	}

	@GetMapping
	public Map<String, Object> list(@RequestParam(required = false) @Nullable String state,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(required = false) @Nullable String cursor,
			@RequestParam(name = "per_page", required = false) @Nullable Integer perPage) {
		OjsWorkflows.Page page = JobFilters.parameters(() -> this.workflows.list(state, type, cursor, perPage));
		return AdminViews.list(page.items().stream().map(WorkflowJson::summary).toList(), page.total(), false,
				(perPage != null) ? perPage : OjsJobs.DEFAULT_PAGE, page.nextCursor());
	}

	@GetMapping("/{id}")
	public Map<String, Object> workflow(@PathVariable String id) {
		return view(id);
	}

	/** Cancels a running workflow: {@code 200} with it; one that ended is {@code 409 conflict}. */
	@PostMapping("/{id}/cancel")
	public Map<String, Object> cancel(@PathVariable String id) {
		view(id);
		if (!this.workflows.cancel(id)) {
			throw ApiException.conflict("Workflow " + id + " has ended: it is " + this.workflows.find(id)
				.map((info) -> info.workflow().state().value())
				.orElse("gone"));
		}
		return view(id);
	}

	private Map<String, Object> view(String id) {
		OjsWorkflows.WorkflowInfo info = this.workflows.find(id)
			.orElseThrow(() -> ApiException.notFound("No workflow " + id));
		return this.workflowJson.admin(info, this.workflows.stepJobs(info));
	}

}

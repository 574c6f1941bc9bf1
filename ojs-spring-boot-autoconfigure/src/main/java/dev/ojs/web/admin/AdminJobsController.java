package dev.ojs.web.admin;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.web.ApiException;

/**
 * Jobs (ojs-admin-api.md §7) and bulk operations on them (§8).
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/jobs")
public class AdminJobsController {

	private final AdminStore admin;

	private final JobStore jobs;

	private final ObjectProvider<HandlerDirectory> handlers;

	private final AdminViews views;

	private final BulkOperations bulk;

	public AdminJobsController(AdminStore admin, JobStore jobs, ObjectProvider<HandlerDirectory> handlers,
			JsonMapper jsonMapper, AdminApiSettings settings) {
		this.admin = admin;
		this.jobs = jobs;
		this.handlers = handlers;
		this.views = new AdminViews(jsonMapper, settings);
		this.bulk = new BulkOperations(admin, jobs, settings.bulkLimit());
	}

	@GetMapping
	public Map<String, Object> list(@RequestParam(required = false) @Nullable String state,
			@RequestParam(required = false) @Nullable String queue, @RequestParam(required = false) @Nullable String type,
			@RequestParam(name = "error_type", required = false) @Nullable String errorType,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until,
			@RequestParam(required = false) @Nullable String id, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(name = "per_page", required = false) @Nullable Integer perPage,
			@RequestParam(required = false) @Nullable String order) {
		JobQuery query = JobFilters.page(JobFilters.query(state, queue, type, errorType, since, until, id), cursor,
				perPage, order);
		return this.views.page(this.admin.jobs(query), query.limit());
	}

	@GetMapping("/{id}")
	public Map<String, Object> job(@PathVariable String id) {
		Job job = find(id);
		HandlerDirectory directory = this.handlers.getIfAvailable();
		RetryPolicyLayers layers = (directory != null) ? directory.layers(job) : null;
		return this.views.detail(job, layers);
	}

	@PostMapping("/{id}/cancel")
	public Map<String, Object> cancel(@PathVariable String id) {
		find(id);
		if (!this.jobs.cancel(id)) {
			throw ApiException.conflict("Job " + id + " already ended and cannot be cancelled");
		}
		return this.views.summary(find(id));
	}

	@PostMapping("/{id}/retry")
	public Map<String, Object> retry(@PathVariable String id) {
		Job job = find(id);
		if (job.state() != JobState.DISCARDED && job.state() != JobState.CANCELLED) {
			throw ApiException.conflict("Job " + id + " is " + job.state().value()
					+ ": only discarded, dead-lettered or cancelled jobs can be retried");
		}
		if (this.admin.retry(List.of(job.id())) != 1) {
			throw ApiException.conflict("Job " + id + " changed state meanwhile or another live job holds its unique key");
		}
		return this.views.summary(find(id));
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> delete(@PathVariable String id) {
		Job job = find(id);
		if (!job.state().isTerminal() || this.admin.delete(List.of(job.id())) != 1) {
			throw ApiException.conflict("Job " + id + " is " + job.state().value()
					+ ": only completed, discarded or cancelled jobs can be deleted");
		}
		return ResponseEntity.noContent().build();
	}

	/** §8: bulk retry by filter (literal paths: more specific than a job's {@code /{id}/retry}). */
	@PostMapping("/bulk/retry")
	public Map<String, Object> bulkRetry(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk("retry", body);
	}

	@PostMapping("/bulk/cancel")
	public Map<String, Object> bulkCancel(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk("cancel", body);
	}

	@PostMapping("/bulk/delete")
	public Map<String, Object> bulkDelete(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk("delete", body);
	}

	private Map<String, Object> bulk(String action, @Nullable Map<String, Object> body) {
		Map<String, Object> request = (body != null) ? body : Map.of();
		return this.bulk.run(action, JobFilters.fromBody(request.get("filter")),
				Boolean.TRUE.equals(request.get("confirm")));
	}

	private Job find(String id) {
		return this.jobs.find(id).orElseThrow(() -> ApiException.notFound("No job " + id));
	}

}

package dev.ojs.web.admin;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.JobQuery;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.json.BulkJson;
import dev.ojs.spring.BulkResult;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsValidationException;
import dev.ojs.web.ApiException;

/**
 * Jobs (ojs-admin-api.md §7) and bulk operations on them (§8), through {@link OjsJobs} and,
 * for one job's cancel, {@link OjsTemplate} (which publishes the {@code JobCancelledEvent}).
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/jobs")
public class AdminJobsController {

	private final OjsTemplate template;

	private final OjsJobs jobs;

	private final AdminViews views;

	private final int bulkLimit;

	public AdminJobsController(OjsTemplate template, OjsJobs jobs, JsonMapper jsonMapper, AdminApiSettings settings) {
		this.template = template;
		this.jobs = jobs;
		this.views = new AdminViews(jsonMapper, settings);
		this.bulkLimit = settings.bulkLimit();
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
		return this.views.page(this.jobs.page(query), query.limit());
	}

	@GetMapping("/{id}")
	public Map<String, Object> job(@PathVariable String id) {
		Job job = find(id);
		return this.views.detail(job, this.jobs.layers(job));
	}

	@PostMapping("/{id}/cancel")
	public Map<String, Object> cancel(@PathVariable String id) {
		find(id);
		if (!this.template.cancel(id)) {
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
		if (this.jobs.retry(List.of(job.id())) != 1) {
			throw ApiException.conflict("Job " + id + " changed state meanwhile or another live job holds its unique key");
		}
		return this.views.summary(find(id));
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> delete(@PathVariable String id) {
		Job job = find(id);
		if (!job.state().isTerminal() || this.jobs.delete(List.of(job.id())) != 1) {
			throw ApiException.conflict("Job " + id + " is " + job.state().value()
					+ ": only completed, discarded or cancelled jobs can be deleted");
		}
		return ResponseEntity.noContent().build();
	}

	/** §8: bulk retry by filter (literal paths: more specific than a job's {@code /{id}/retry}). */
	@PostMapping("/bulk/retry")
	public Map<String, Object> bulkRetry(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk(OjsJobs.BulkAction.RETRY, body);
	}

	@PostMapping("/bulk/cancel")
	public Map<String, Object> bulkCancel(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk(OjsJobs.BulkAction.CANCEL, body);
	}

	@PostMapping("/bulk/delete")
	public Map<String, Object> bulkDelete(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return bulk(OjsJobs.BulkAction.DELETE, body);
	}

	/** §8: the count, or with {@code confirm} the effect; {@code truncated} tells the caller to repeat. */
	private Map<String, Object> bulk(OjsJobs.BulkAction action, @Nullable Map<String, Object> body) {
		Map<String, Object> request = (body != null) ? body : Map.of();
		BulkResult result;
		try {
			result = this.jobs.bulk(action, JobFilters.fromBody(request.get("filter")),
					Boolean.TRUE.equals(request.get("confirm")), this.bulkLimit);
		}
		catch (OjsValidationException ex) {
			throw ex.getField().equals("state") ? ex.withField("filter.state") : ex;
		}
		return BulkJson.bulk(action.value(), result);
	}

	private Job find(String id) {
		return this.jobs.find(id).orElseThrow(() -> ApiException.notFound("No job " + id));
	}

}

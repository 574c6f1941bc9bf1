package dev.ojs.web.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.web.ApiException;

/**
 * Dead letters (ojs-admin-api.md §11, ojs-dead-letter.md): list, groups by error type × job
 * type × queue, retry or delete one, and retry or delete a group (or any filter) with the
 * bulk operations' confirm interlock.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/dead-letter")
public class AdminDeadLetterController {

	/** Groups (the largest first) that get a sample error message. */
	private static final int SAMPLED_GROUPS = 20;

	private final AdminStore admin;

	private final JobStore jobs;

	private final AdminViews views;

	private final BulkOperations bulk;

	public AdminDeadLetterController(AdminStore admin, JobStore jobs, JsonMapper jsonMapper, AdminApiSettings settings) {
		this.admin = admin;
		this.jobs = jobs;
		this.views = new AdminViews(jsonMapper, settings);
		this.bulk = new BulkOperations(admin, jobs, settings.bulkLimit());
	}

	@GetMapping
	public Map<String, Object> list(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(name = "error_type", required = false) @Nullable String errorType,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until,
			@RequestParam(required = false) @Nullable String cursor,
			@RequestParam(name = "per_page", required = false) @Nullable Integer perPage,
			@RequestParam(required = false) @Nullable String order) {
		JobQuery query = JobFilters.page(deadLetters(queue, type, errorType, since, until), cursor, perPage, order);
		return this.views.page(this.admin.jobs(query), query.limit());
	}

	@GetMapping("/groups")
	public Map<String, Object> groups(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(name = "error_type", required = false) @Nullable String errorType,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until) {
		JobQuery query = deadLetters(queue, type, errorType, since, until);
		List<DeadLetterGroup> groups = this.admin.deadLetterGroups(query);
		List<Map<String, Object>> items = new ArrayList<>(groups.size());
		long total = 0;
		for (DeadLetterGroup group : groups) {
			Map<String, Object> view = new LinkedHashMap<>();
			view.put("error_type", group.errorType());
			view.put("type", group.type());
			view.put("queue", group.queue());
			view.put("count", group.count());
			view.put("oldest_at", AdminViews.time(group.oldestAt()));
			view.put("newest_at", AdminViews.time(group.newestAt()));
			view.put("sample_message", (items.size() < SAMPLED_GROUPS) ? sampleMessage(query, group) : null);
			items.add(view);
			total += group.count();
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("items", items);
		body.put("total", total);
		return body;
	}

	/** The job back in line: no longer a dead letter. */
	@PostMapping("/{id}/retry")
	public Map<String, Object> retry(@PathVariable String id) {
		find(id);
		if (!this.jobs.retryDeadLetter(id)) {
			throw ApiException.conflict("Job " + id + " changed state meanwhile or another live job holds its unique key");
		}
		return this.views.summary(this.jobs.find(id).orElseThrow(() -> ApiException.notFound("No dead letter " + id)));
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> delete(@PathVariable String id) {
		find(id);
		if (!this.jobs.deleteDeadLetter(id)) {
			throw ApiException.conflict("Job " + id + " is not a dead letter");
		}
		return ResponseEntity.noContent().build();
	}

	/** Deletes the dead letters matching the body's fields ({@code older_than}: created before). */
	@DeleteMapping
	public Map<String, Object> deleteMatching(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		Map<String, Object> request = (body != null) ? body : Map.of();
		JobQuery query = deadLetters(JobFilters.text(request, "queue"), JobFilters.text(request, "type"),
				JobFilters.text(request, "error_type"), null, JobFilters.text(request, "older_than"));
		return this.bulk.run("delete", query, Boolean.TRUE.equals(request.get("confirm")));
	}

	/** Retries a group (or any filter) of dead letters. */
	@PostMapping("/retry")
	public Map<String, Object> retryGroup(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return group("retry", body);
	}

	/** Deletes a group (or any filter) of dead letters. */
	@PostMapping("/delete")
	public Map<String, Object> deleteGroup(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		return group("delete", body);
	}

	private Map<String, Object> group(String action, @Nullable Map<String, Object> body) {
		Map<String, Object> request = (body != null) ? body : Map.of();
		Object filter = request.get("filter");
		if (filter != null && !(filter instanceof Map)) {
			throw ApiException.invalidRequest("filter must be an object");
		}
		Map<?, ?> fields = (filter != null) ? (Map<?, ?>) filter : Map.of();
		JobQuery query = deadLetters(JobFilters.text(fields, "queue"), JobFilters.text(fields, "type"),
				JobFilters.text(fields, "error_type"), JobFilters.text(fields, "since"),
				JobFilters.text(fields, "until"));
		return this.bulk.run(action, query, Boolean.TRUE.equals(request.get("confirm")));
	}

	private static JobQuery deadLetters(@Nullable String queue, @Nullable String type, @Nullable String errorType,
			@Nullable String since, @Nullable String until) {
		return JobFilters.withState(JobFilters.query(null, queue, type, errorType, since, until, null), "dead_letter");
	}

	private @Nullable String sampleMessage(JobQuery query, DeadLetterGroup group) {
		if (group.errorType() == null) {
			return null;
		}
		JobQuery members = new JobQuery(query.state(), query.deadLetter(), group.queue(), group.type(), false,
				group.errorType(), query.since(), query.until(), null, null, 1, false);
		ErrorEntry error = this.admin.ids(members, 1)
			.stream()
			.findFirst()
			.flatMap(this.jobs::find)
			.map(Job::lastError)
			.orElse(null);
		return (error != null) ? error.message() : null;
	}

	private Job find(String id) {
		return this.jobs.find(id)
			.filter(Job::deadLetter)
			.orElseThrow(() -> ApiException.notFound("No dead letter " + id));
	}

}

package dev.ojs.web.admin;

import java.util.Map;
import java.util.NoSuchElementException;

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
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.json.BulkJson;
import dev.ojs.json.DeadLetterJson;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsJobs;
import dev.ojs.web.ApiException;

/**
 * Dead letters (ojs-admin-api.md §11, ojs-dead-letter.md) through {@link OjsDeadLetters}:
 * list, groups by error type × job type × queue, retry or delete one, and retry or delete a
 * group (or any filter) with the bulk operations' confirm interlock.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/dead-letter")
public class AdminDeadLetterController {

	private final OjsDeadLetters deadLetters;

	private final AdminViews views;

	private final int bulkLimit;

	public AdminDeadLetterController(OjsDeadLetters deadLetters, JsonMapper jsonMapper, AdminApiSettings settings) {
		this.deadLetters = deadLetters;
		this.views = new AdminViews(jsonMapper, settings);
		this.bulkLimit = settings.bulkLimit();
	}

	@GetMapping
	public Map<String, Object> list(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(name = "error_type", required = false) @Nullable String errorType,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until,
			@RequestParam(required = false) @Nullable String cursor,
			@RequestParam(name = "per_page", required = false) @Nullable Integer perPage,
			@RequestParam(required = false) @Nullable String order) {
		JobQuery query = JobFilters.page(filter(queue, type, errorType, since, until), cursor, perPage, order);
		return this.views.page(this.deadLetters.list(query), query.limit());
	}

	@GetMapping("/groups")
	public Map<String, Object> groups(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(name = "error_type", required = false) @Nullable String errorType,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until) {
		return DeadLetterJson.groups(this.deadLetters.groups(filter(queue, type, errorType, since, until)));
	}

	/** The job back in line; {@code 409} when it changed meanwhile or its unique key is taken. */
	@PostMapping("/{id}/retry")
	public Map<String, Object> retry(@PathVariable String id) {
		try {
			return this.views.summary(this.deadLetters.retry(id));
		}
		catch (NoSuchElementException ex) {
			throw notFound(id);
		}
		catch (IllegalStateException ex) {
			throw ApiException.conflict(String.valueOf(ex.getMessage()));
		}
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> delete(@PathVariable String id) {
		try {
			this.deadLetters.delete(id);
		}
		catch (NoSuchElementException ex) {
			throw notFound(id);
		}
		catch (IllegalStateException ex) {
			throw ApiException.conflict(String.valueOf(ex.getMessage()));
		}
		return ResponseEntity.noContent().build();
	}

	/** Deletes the dead letters matching the body's fields ({@code older_than}: created before). */
	@DeleteMapping
	public Map<String, Object> deleteMatching(@RequestBody(required = false) @Nullable Map<String, Object> body) {
		Map<String, Object> request = (body != null) ? body : Map.of();
		JobQuery query = filter(JobFilters.text(request, "queue"), JobFilters.text(request, "type"),
				JobFilters.text(request, "error_type"), null, JobFilters.text(request, "older_than"));
		return bulk("delete", query, request);
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
		JobQuery query = filter(JobFilters.text(fields, "queue"), JobFilters.text(fields, "type"),
				JobFilters.text(fields, "error_type"), JobFilters.text(fields, "since"),
				JobFilters.text(fields, "until"));
		return bulk(action, query, request);
	}

	private Map<String, Object> bulk(String action, JobQuery query, Map<String, Object> request) {
		boolean confirm = Boolean.TRUE.equals(request.get("confirm"));
		return BulkJson.bulk(action, action.equals("retry") ? this.deadLetters.retry(query, confirm, this.bulkLimit)
				: this.deadLetters.delete(query, confirm, this.bulkLimit));
	}

	/** The request's filter; the service keeps it to dead letters. */
	private static JobQuery filter(@Nullable String queue, @Nullable String type, @Nullable String errorType,
			@Nullable String since, @Nullable String until) {
		return JobFilters.query(null, queue, type, errorType, since, until, null);
	}

	private static ApiException notFound(String id) {
		return ApiException.notFound("No dead letter " + id);
	}

}

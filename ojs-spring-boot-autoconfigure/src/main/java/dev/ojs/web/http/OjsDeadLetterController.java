package dev.ojs.web.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.Job;
import dev.ojs.json.DeadLetterJson;
import dev.ojs.json.JobJson;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * Dead letters over the binding (ojs-http-binding.md §12, spec README decision 23): list,
 * get, retry, delete ({@code 200}) and stats through {@link OjsDeadLetters}, like the
 * {@code deadletters} actuator endpoint and the Admin API. Only dead-lettered jobs, never
 * plain discarded ones. A retry keeps the error history and resets the attempt (decision 8).
 */
@RestController
public class OjsDeadLetterController {

	/** Decision 13: the page of a request that names none. */
	static final int DEFAULT_LIMIT = 50;

	private static final String PATH = OjsHttp.BASE_PATH + "/dead-letter";

	private final OjsDeadLetters deadLetters;

	private final JobJson jobJson;

	public OjsDeadLetterController(OjsDeadLetters deadLetters, JsonMapper jsonMapper) {
		this.deadLetters = deadLetters;
		this.jobJson = new JobJson(jsonMapper);
	}

	/**
	 * §12.1: newest first; {@code limit} and {@code offset}, or the {@code cursor} of the
	 * previous page (decision 13), which neither skips nor repeats dead letters when newer
	 * ones arrive.
	 */
	@GetMapping(PATH)
	Map<String, Object> list(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(required = false) @Nullable Integer limit,
			@RequestParam(required = false) @Nullable Integer offset,
			@RequestParam(required = false) @Nullable String cursor) {
		int size = (limit != null) ? limit : DEFAULT_LIMIT;
		int skip = (offset != null) ? offset : 0;
		DeadLetterFilter filter = new DeadLetterFilter(queue, type, null, null, null);
		OjsDeadLetters.Page page = this.deadLetters.list(filter, cursor, skip, size);
		Instant now = Instant.now();
		List<Map<String, Object>> jobs = new ArrayList<>();
		page.items().forEach((job) -> jobs.add(this.jobJson.job(job, now)));
		Map<String, Object> pagination = new LinkedHashMap<>();
		pagination.put("total", page.total());
		pagination.put("limit", size);
		if (cursor == null) {
			pagination.put("offset", skip);
		}
		pagination.put("has_more", page.hasMore());
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("jobs", jobs);
		body.put("pagination", pagination);
		body.put("next_cursor", page.nextCursor());
		return body;
	}

	@GetMapping(PATH + "/stats")
	Map<String, Object> stats() {
		return DeadLetterJson.stats(this.deadLetters.stats());
	}

	@GetMapping(PATH + "/{id}")
	Map<String, Object> deadLetter(@PathVariable String id) {
		return Map.of("job", this.jobJson.job(this.deadLetters.find(id).orElseThrow(() -> notFound(id)), Instant.now()));
	}

	/** §12.2: back to {@code available}, attempt 0, error history kept. */
	@PostMapping(PATH + "/{id}/retry")
	Map<String, Object> retry(@PathVariable String id) {
		Job job;
		try {
			job = this.deadLetters.retry(id);
		}
		catch (NoSuchElementException | IllegalStateException ex) {
			throw notFound(id);
		}
		Map<String, Object> json = new LinkedHashMap<>(this.jobJson.job(job, Instant.now()));
		json.put("re_enqueued_at", JobJson.timestamp(job.enqueuedAt()));
		return Map.of("job", json);
	}

	/** §12.3: {@code 200} with {@code "deleted": true} (decision 23). */
	@DeleteMapping(PATH + "/{id}")
	Map<String, Object> delete(@PathVariable String id) {
		try {
			this.deadLetters.delete(id);
		}
		catch (NoSuchElementException | IllegalStateException ex) {
			throw notFound(id);
		}
		return Map.of("deleted", true, "job_id", id);
	}

	private static ApiException notFound(String id) {
		return new ApiException(404, ApiError.NOT_FOUND, "Dead letter job '" + id + "' not found.", false,
				Map.of("resource_type", "dead_letter_job", "resource_id", id));
	}

}

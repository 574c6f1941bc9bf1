package dev.ojs.web.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.job.Job;
import dev.ojs.job.JobStore;
import dev.ojs.json.JobJson;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * Dead letters over the binding (ojs-http-binding.md §12, spec README decision 23): list,
 * get, retry, delete ({@code 200}) and stats, on the same {@link JobStore} operations as
 * the {@code deadletters} actuator endpoint. Only dead-lettered jobs, never plain
 * discarded ones. A retry keeps the error history and resets the attempt (decision 8).
 */
@RestController
public class OjsDeadLetterController {

	/** Decision 13: default and largest page. */
	static final int DEFAULT_LIMIT = 50;

	static final int MAX_LIMIT = 1000;

	private static final String PATH = OjsHttp.BASE_PATH + "/dead-letter";

	private final JobStore store;

	private final JobJson jobJson;

	public OjsDeadLetterController(JobStore store, JsonMapper jsonMapper) {
		this.store = store;
		this.jobJson = new JobJson(jsonMapper);
	}

	/**
	 * §12.1: newest first; {@code limit} and {@code offset}, or the {@code cursor} of the
	 * previous page (decision 13): a keyset over (dead-lettered time, id), so a page after a
	 * cursor neither skips nor repeats dead letters when newer ones arrive.
	 */
	@GetMapping(PATH)
	Map<String, Object> list(@RequestParam(required = false) @Nullable String queue,
			@RequestParam(required = false) @Nullable String type,
			@RequestParam(required = false) @Nullable Integer limit,
			@RequestParam(required = false) @Nullable Integer offset,
			@RequestParam(required = false) @Nullable String cursor) {
		int size = (limit != null) ? limit : DEFAULT_LIMIT;
		if (size < 1 || size > MAX_LIMIT) {
			throw ApiException.invalidRequest("'limit' must be from 1 to " + MAX_LIMIT + ".", Map.of("field", "limit"));
		}
		int skip = (offset != null) ? offset : 0;
		if (skip < 0) {
			throw ApiException.invalidRequest("'offset' must not be negative.", Map.of("field", "offset"));
		}
		DeadLetterFilter filter = new DeadLetterFilter(queue, type, null, null, null);
		long total = this.store.countDeadLetters(filter);
		// one more than asked tells whether there is a next page
		List<Job> page;
		if (cursor != null) {
			Cursor after = Cursor.decode(cursor);
			page = this.store.findDeadLettersBefore(filter, after.discardedAt(), after.id(), size + 1);
		}
		else {
			page = this.store.findDeadLetters(filter, skip, size + 1);
		}
		boolean hasMore = page.size() > size;
		if (hasMore) {
			page = page.subList(0, size);
		}
		Instant now = Instant.now();
		List<Map<String, Object>> jobs = new ArrayList<>();
		page.forEach((job) -> jobs.add(this.jobJson.job(job, now)));
		Map<String, Object> pagination = new LinkedHashMap<>();
		pagination.put("total", total);
		pagination.put("limit", size);
		if (cursor == null) {
			pagination.put("offset", skip);
		}
		pagination.put("has_more", hasMore);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("jobs", jobs);
		body.put("pagination", pagination);
		body.put("next_cursor", hasMore ? Cursor.of(page.get(page.size() - 1)).encode() : null);
		return body;
	}

	@GetMapping(PATH + "/stats")
	Map<String, Object> stats() {
		DeadLetterStats stats = this.store.deadLetterStats();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("total", stats.total());
		body.put("by_queue", stats.byQueue());
		body.put("by_error_type", stats.byErrorType());
		body.put("oldest", JobJson.timestamp(stats.oldest()));
		body.put("newest", JobJson.timestamp(stats.newest()));
		return body;
	}

	@GetMapping(PATH + "/{id}")
	Map<String, Object> deadLetter(@PathVariable String id) {
		return Map.of("job", this.jobJson.job(find(id), Instant.now()));
	}

	/** §12.2: back to {@code available}, attempt 0, error history kept. */
	@PostMapping(PATH + "/{id}/retry")
	Map<String, Object> retry(@PathVariable String id) {
		find(id);
		if (!this.store.retryDeadLetter(id)) {
			throw notFound(id);
		}
		Job job = this.store.find(id).orElseThrow(() -> notFound(id));
		Map<String, Object> json = new LinkedHashMap<>(this.jobJson.job(job, Instant.now()));
		json.put("re_enqueued_at", JobJson.timestamp(job.enqueuedAt()));
		return Map.of("job", json);
	}

	/** §12.3: {@code 200} with {@code "deleted": true} (decision 23). */
	@DeleteMapping(PATH + "/{id}")
	Map<String, Object> delete(@PathVariable String id) {
		find(id);
		if (!this.store.deleteDeadLetter(id)) {
			throw notFound(id);
		}
		return Map.of("deleted", true, "job_id", id);
	}

	private Job find(String id) {
		return this.store.find(id).filter(Job::deadLetter).orElseThrow(() -> notFound(id));
	}

	/** A keyset position: the last dead letter of a page, opaque to clients (base64url). */
	record Cursor(Instant discardedAt, String id) {

		static Cursor of(Job job) {
			return new Cursor(Objects.requireNonNull(job.discardedAt()), job.id());
		}

		String encode() {
			return Base64.getUrlEncoder().withoutPadding()
				.encodeToString((this.discardedAt + "|" + this.id).getBytes(StandardCharsets.UTF_8));
		}

		static Cursor decode(String cursor) {
			try {
				String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
				int bar = text.indexOf('|');
				return new Cursor(Instant.parse(text.substring(0, bar)), text.substring(bar + 1));
			}
			catch (RuntimeException ex) {
				throw ApiException.invalidRequest("'cursor' is not a cursor this server returned.",
						Map.of("field", "cursor"));
			}
		}

	}

	private static ApiException notFound(String id) {
		return new ApiException(404, ApiError.NOT_FOUND, "Dead letter job '" + id + "' not found.", false,
				Map.of("resource_type", "dead_letter_job", "resource_id", id));
	}

}

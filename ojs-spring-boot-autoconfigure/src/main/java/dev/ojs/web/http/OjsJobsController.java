package dev.ojs.web.http;

import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.RateLimit;
import dev.ojs.json.JobJson;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsValidationException;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;

/**
 * PUSH, INFO, CANCEL and ACTIVATE (ojs-http-binding.md §9.1–§9.5): jobs enqueued here go
 * through {@link OjsTemplate}, so they get their handler's queue, priority and retry policy
 * like any job the application enqueues, the same checks of names and sizes, and
 * {@code @OjsJob} handlers run them. Stored jobs are read and activated through
 * {@link OjsJobs}, and a job's {@code rate_limit} set through {@link OjsQueues}.
 */
@RestController
public class OjsJobsController {

	/** Most jobs in one batch (decision 18, L4-BULK-002). */
	static final int MAX_BATCH = 1000;

	private final OjsTemplate template;

	private final OjsJobs jobs;

	private final OjsQueues queues;

	private final JsonMapper jsonMapper;

	private final JobJson jobJson;

	private final HandlerDirectory handlers;

	private final TransactionOperations transactions;

	/**
	 * @param handlers where a job enqueued without a queue goes (for its unique key)
	 */
	public OjsJobsController(OjsTemplate template, OjsJobs jobs, OjsQueues queues, JsonMapper jsonMapper,
			HandlerDirectory handlers) {
		this(template, jobs, queues, jsonMapper, handlers, TransactionOperations.withoutTransaction());
	}

	/**
	 * @param handlers where a job enqueued without a queue goes (for its unique key)
	 * @param transactions a transaction on the store's database, in which a request's rate
	 * limits are set together with its jobs
	 */
	public OjsJobsController(OjsTemplate template, OjsJobs jobs, OjsQueues queues, JsonMapper jsonMapper,
			HandlerDirectory handlers, TransactionOperations transactions) {
		this.transactions = transactions;
		this.template = template;
		this.jobs = jobs;
		this.queues = queues;
		this.handlers = handlers;
		this.jsonMapper = jsonMapper;
		this.jobJson = new JobJson(jsonMapper);
	}

	/**
	 * §9.1 PUSH: {@code 201} with the job and its {@code Location}. A unique job whose key a
	 * live job holds (spec README decision 21): {@code 409 duplicate} naming it
	 * ({@code reject}), {@code 200} with it and {@code "deduplicated": true}
	 * ({@code ignore}, {@code use_existing}), or it is cancelled and the new job enqueued
	 * ({@code replace}).
	 */
	@PostMapping(OjsHttp.BASE_PATH + "/jobs")
	ResponseEntity<Map<String, Object>> enqueue(@RequestBody(required = false) @Nullable String body) {
		Instant now = Instant.now();
		EnqueueRequest request = EnqueueRequest.read(Bodies.object(body, this.jsonMapper), "", now,
				(type) -> this.handlers.route(type).queue(), this.jsonMapper);
		Job job = withRateLimits(List.of(request), () -> insert(request));
		if (request.options().id() != null && job.createdAt().isBefore(now.truncatedTo(ChronoUnit.MICROS))) {
			// a chosen id that is stored: the job exists (decision 21's reject, for the id)
			throw duplicateId(job.id());
		}
		UniquePolicy unique = request.unique();
		// a job created before this request is the live holder of the unique key
		if (unique != null && job.createdAt().isBefore(now.truncatedTo(ChronoUnit.MICROS))) {
			if (unique.onConflict().equals(UniquePolicy.IGNORE)) {
				Map<String, Object> response = new LinkedHashMap<>();
				response.put("job", this.jobJson.job(job, now));
				response.put("deduplicated", true);
				return ResponseEntity.ok(response);
			}
			if (unique.onConflict().equals(UniquePolicy.REPLACE)) {
				this.template.cancel(job.id());
				Job replacement = insert(request);
				if (!replacement.id().equals(job.id()) && !replacement.createdAt().isBefore(now.truncatedTo(ChronoUnit.MICROS))) {
					return created(replacement, now);
				}
				job = replacement;
			}
			throw new ApiException(409, ApiError.DUPLICATE, "A job with the same unique key already exists.", false,
					Map.of("existing_job_id", job.id(), "unique_key", String.valueOf(job.uniqueKey())));
		}
		return created(job, now);
	}

	/**
	 * Decision 22: jobs that carry a rate limit set their queue's, in one transaction with the
	 * enqueue (the jobs first, so the enqueue's checks come first): no job of the request is
	 * claimed before its limit holds, and a refused request changes no limit.
	 */
	private <T> T withRateLimits(List<EnqueueRequest> requests, Supplier<T> enqueue) {
		if (requests.stream().allMatch((request) -> request.rateLimit() == null)) {
			return enqueue.get();
		}
		return this.transactions.execute((status) -> {
			T enqueued = enqueue.get();
			for (EnqueueRequest request : requests) {
				RateLimit limit = request.rateLimit();
				if (limit != null) {
					String queue = request.options().queue();
					this.queues.setRateLimitOfJob((queue != null) ? queue : this.handlers.route(request.type()).queue(),
							limit);
				}
			}
			return enqueued;
		});
	}

	private Job insert(EnqueueRequest request) {
		String id;
		try {
			id = this.template.enqueue(request.type(), request.args(), request.options());
		}
		catch (RetryPolicyValidationException ex) {
			throw RetryJson.invalid(ex, "options.retry");
		}
		catch (OjsValidationException ex) {
			throw inRequest(ex);
		}
		return this.jobs.find(id).orElseThrow(() -> notFound(id));
	}

	/** The service's fields that a request gives under {@code options}. */
	private static final Set<String> OPTIONS = Set.of("queue", "priority", "tags", "pending", "expires_at");

	/**
	 * The enqueue's refusal with the field as the request names it: a job's queue is
	 * {@code options.queue}, of a batch's job {@code jobs[i].options.queue}.
	 */
	private static OjsValidationException inRequest(OjsValidationException ex) {
		String field = ex.getField();
		String prefix = field.startsWith("jobs[") ? field.substring(0, field.indexOf(']') + 2) : "";
		String name = field.substring(prefix.length());
		return OPTIONS.contains(name) ? ex.withField(prefix + "options." + name) : ex;
	}

	private ResponseEntity<Map<String, Object>> created(Job job, Instant now) {
		return ResponseEntity.created(URI.create(OjsHttp.BASE_PATH + "/jobs/" + job.id()))
			.body(Map.of("job", this.jobJson.job(job, now)));
	}

	/**
	 * §9.2 PUSH batch (spec README decision 18): up to {@value #MAX_BATCH} jobs, all or
	 * nothing; an invalid job refuses the batch, naming it ({@code jobs[i].field}).
	 */
	@PostMapping(OjsHttp.BASE_PATH + "/jobs/batch")
	ResponseEntity<Map<String, Object>> enqueueBatch(@RequestBody(required = false) @Nullable String body) {
		Instant now = Instant.now();
		JsonNode request = Bodies.object(body, this.jsonMapper);
		JsonNode jobs = request.get("jobs");
		if (jobs == null || !jobs.isArray() || jobs.isEmpty() || jobs.size() > MAX_BATCH) {
			throw EnqueueRequest.invalid("jobs", "The 'jobs' field must be an array of 1 to " + MAX_BATCH + " jobs.",
					"array", jobs);
		}
		List<OjsTemplate.Enqueue> enqueues = new ArrayList<>(jobs.size());
		List<EnqueueRequest> requests = new ArrayList<>(jobs.size());
		for (int i = 0; i < jobs.size(); i++) {
			EnqueueRequest one = EnqueueRequest.read(jobs.get(i), "jobs[" + i + "].", now,
					(type) -> this.handlers.route(type).queue(), this.jsonMapper);
			if (one.unique() != null) {
				throw new ApiException(422, ApiError.UNSUPPORTED, "Unique jobs are not supported in a batch.", false,
						Map.of("field", "jobs[" + i + "].options.unique"));
			}
			enqueues.add(new OjsTemplate.Enqueue(one.type(), one.args(), one.options()));
			requests.add(one);
		}
		List<String> ids;
		try {
			ids = this.transactions.execute((status) -> {
				List<String> inserted = withRateLimits(requests, () -> this.template.enqueueBatch(enqueues));
				for (int i = 0; i < inserted.size(); i++) {
					String id = requests.get(i).options().id();
					if (id != null && this.jobs.find(id).filter((job) -> job.createdAt()
						.isBefore(now.truncatedTo(ChronoUnit.MICROS))).isPresent()) {
						// all or nothing: a stored id refuses the batch
						throw duplicateId(id);
					}
				}
				return inserted;
			});
		}
		catch (RetryPolicyValidationException ex) {
			throw RetryJson.invalid(ex, "jobs[].options.retry");
		}
		catch (OjsValidationException ex) {
			throw inRequest(ex);
		}
		List<Map<String, Object>> created = new ArrayList<>(ids.size());
		for (String id : ids) {
			this.jobs.find(id).ifPresent((job) -> created.add(this.jobJson.job(job, now)));
		}
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("jobs", created);
		response.put("count", created.size());
		return ResponseEntity.status(201).body(response);
	}

	/** {@code 409 duplicate}: a job with the chosen id exists. */
	private static ApiException duplicateId(String id) {
		return new ApiException(409, ApiError.DUPLICATE, "A job with the id '" + id + "' already exists.", false,
				Map.of("existing_job_id", id, "field", "id"));
	}

	/** §9.3 INFO. */
	@GetMapping(OjsHttp.BASE_PATH + "/jobs/{id}")
	Map<String, Object> job(@PathVariable String id) {
		Job job = this.jobs.find(id).orElseThrow(() -> notFound(id));
		// spec README decision 28: a completed job's result is returned with it
		String result = (job.state() == JobState.COMPLETED) ? this.jobs.result(id).orElse(null) : null;
		return Map.of("job", this.jobJson.job(job, result, this.jobs.now()));
	}

	/**
	 * §9.4 CANCEL (spec README decision 9): a live job, active ones too, is cancelled at
	 * once; a job already in a terminal state is {@code 409 conflict}.
	 */
	@DeleteMapping(OjsHttp.BASE_PATH + "/jobs/{id}")
	Map<String, Object> cancel(@PathVariable String id) {
		Job before = this.jobs.find(id).orElseThrow(() -> notFound(id));
		if (!this.template.cancel(id)) {
			Job now = this.jobs.find(id).orElseThrow(() -> notFound(id));
			throw terminal(now);
		}
		Job after = this.jobs.find(id).orElseThrow(() -> notFound(id));
		Map<String, Object> job = new LinkedHashMap<>(this.jobJson.job(after, this.jobs.now()));
		job.put("previous_state", before.state().value());
		return Map.of("job", job);
	}

	/**
	 * §9.5 ACTIVATE: a pending job becomes available ({@code 200} with the job,
	 * {@code activated_at} and {@code previous_state}); a job in another state is
	 * {@code 409 conflict}.
	 */
	@PostMapping(OjsHttp.BASE_PATH + "/jobs/{id}/activate")
	Map<String, Object> activate(@PathVariable String id) {
		this.jobs.find(id).orElseThrow(() -> notFound(id));
		Instant now = this.jobs.now();
		if (!this.jobs.activate(id)) {
			JobState state = this.jobs.find(id).orElseThrow(() -> notFound(id)).state();
			throw new ApiException(409, ApiError.CONFLICT, "Cannot activate job in state '" + state.value()
					+ "'. Only jobs in 'pending' state can be activated.", false,
					Map.of("job_id", id, "current_state", state.value()));
		}
		Job after = this.jobs.find(id).orElseThrow(() -> notFound(id));
		Map<String, Object> job = new LinkedHashMap<>(this.jobJson.job(after, now));
		job.put("activated_at", JobJson.timestamp(after.scheduledAt()));
		job.put("previous_state", JobState.PENDING.value());
		return Map.of("job", job);
	}

	static ApiException notFound(String id) {
		return new ApiException(404, ApiError.NOT_FOUND, "Job '" + id + "' not found.", false,
				Map.of("resource_type", "job", "resource_id", id));
	}

	private static ApiException terminal(Job job) {
		JobState state = job.state();
		return new ApiException(409, ApiError.CONFLICT, "Cannot cancel job in terminal state '" + state.value() + "'.",
				false, Map.of("job_id", job.id(), "current_state", state.value()));
	}

}

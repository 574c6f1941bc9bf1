package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.json.JobJson;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.spring.OjsExternalWorkers;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.worker.RemoteAttempts;

/**
 * FETCH, ACK, FAIL and BEAT (ojs-http-binding.md §10) through {@link OjsExternalWorkers}, on
 * the node's engine: the same batched {@code SKIP LOCKED} claim as the node's pollers,
 * restricted to the queues (and, as an extension, the {@code types}) the worker asks for; the
 * same reservation guard, retry policy, error history and events. The service's limits are
 * checked as each field is read, so that a refusal names the JSON type it received.
 */
@RestController
public class OjsWorkersController {

	private static final int MAX_FETCH = OjsExternalWorkers.MAX_FETCH;

	private static final int MAX_WORKER_ID_LENGTH = OjsExternalWorkers.MAX_WORKER_ID_LENGTH;

	private final OjsExternalWorkers workers;

	private final JsonMapper jsonMapper;

	private final JobJson jobJson;

	private final WorkerDirectives directives;

	public OjsWorkersController(OjsExternalWorkers workers, JsonMapper jsonMapper, WorkerDirectives directives) {
		this.workers = workers;
		this.jsonMapper = jsonMapper;
		this.jobJson = new JobJson(jsonMapper);
		this.directives = directives;
	}

	/** §10.1 FETCH: up to {@code count} jobs, {@code 200} with {@code "jobs": []} when none. */
	@PostMapping(OjsHttp.BASE_PATH + "/workers/fetch")
	Map<String, Object> fetch(@RequestBody(required = false) @Nullable String body) {
		JsonNode request = Bodies.object(body, this.jsonMapper);
		List<String> queues = names(request, "queues", true, EnqueueRequest.QUEUE, EnqueueRequest.MAX_QUEUE_LENGTH);
		List<String> types = names(request, "types", false, EnqueueRequest.TYPE, EnqueueRequest.MAX_TYPE_LENGTH);
		int count = (int) Bodies.integer(request, "count", 1, MAX_FETCH, 1);
		String workerId = Bodies.optionalString(request, "worker_id", MAX_WORKER_ID_LENGTH);
		OjsExternalWorkers.Fetched fetched = this.workers.fetch(workerId, queues, types, visibility(request), count);
		Instant now = Instant.now();
		List<Map<String, Object>> json = new ArrayList<>(fetched.jobs().size());
		for (Job job : fetched.jobs()) {
			Map<String, Object> one = this.jobJson.job(job, now);
			one.put("visibility_timeout_ms", fetched.visibility().toMillis());
			json.add(one);
		}
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("jobs", json);
		if (!json.isEmpty()) {
			response.put("job", json.get(0));
		}
		response.put("worker_id", fetched.workerId());
		return response;
	}

	/**
	 * §10.2 ACK: {@code 409} unless an external worker (this one, when named) holds the job.
	 * With {@code acks} (extension {@code x-batch-ack}) many jobs at once, each answered in the
	 * list of the {@code 200}.
	 */
	@PostMapping(OjsHttp.BASE_PATH + "/workers/ack")
	Map<String, Object> ack(@RequestBody(required = false) @Nullable String body) {
		JsonNode request = Bodies.object(body, this.jsonMapper);
		if (request.has("acks")) {
			return BatchAck.answer(this.workers.ackAll(BatchAck.read(request, this.jsonMapper),
					Bodies.optionalString(request, "worker_id", MAX_WORKER_ID_LENGTH)));
		}
		String id = Bodies.string(request, "job_id");
		String workerId = Bodies.optionalString(request, "worker_id", MAX_WORKER_ID_LENGTH);
		JsonNode result = request.get("result");
		String resultJson = (result == null || result.isNull()) ? null : this.jsonMapper.writeValueAsString(result);
		RemoteAttempts.Written written = written(this.workers.ack(id, workerId, resultJson));
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("acknowledged", true);
		response.put("id", id);
		response.put("job_id", id);
		response.put("state", JobState.COMPLETED.value());
		response.put("completed_at", JobJson.timestamp(written.at()));
		return response;
	}

	/**
	 * §10.3 FAIL, as a failure of an in-process handler (spec README decision 7): the
	 * job's retry policy decides, the error joins the history. {@code error.code} may carry
	 * a handler code ({@code RETRY}, {@code DISCARD}, {@code DEAD_LETTER}, {@code FAIL});
	 * without one, {@code retryable: false} is a non-retryable error.
	 */
	@PostMapping(OjsHttp.BASE_PATH + "/workers/nack")
	Map<String, Object> nack(@RequestBody(required = false) @Nullable String body) {
		JsonNode request = Bodies.object(body, this.jsonMapper);
		String id = Bodies.string(request, "job_id");
		String workerId = Bodies.optionalString(request, "worker_id", MAX_WORKER_ID_LENGTH);
		JsonNode requeue = request.get("requeue");
		if (requeue != null && !requeue.isNull() && !requeue.isBoolean()) {
			throw EnqueueRequest.invalid("requeue", "The 'requeue' field must be a boolean.", "boolean", requeue);
		}
		if (requeue != null && requeue.booleanValue()) {
			// openapi NackRequest.requeue: back to available at once, the attempt not counted
			RemoteAttempts.Written written = written(this.workers.requeue(id, workerId));
			Map<String, Object> response = new LinkedHashMap<>();
			response.put("id", id);
			response.put("job_id", id);
			response.put("state", written.state().value());
			response.put("requeued", true);
			this.workers.find(id).ifPresent((job) -> {
				response.put("attempt", job.attempt());
				response.put("job", this.jobJson.job(job, Instant.now()));
			});
			return response;
		}
		NackError error = nackError(request.get("error"));
		RemoteAttempts.Written written = written(this.workers.nack(id, workerId, error.error(), error.retryable()));
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("id", id);
		response.put("job_id", id);
		response.put("state", written.state().value());
		response.put("attempt", written.job().attempt());
		response.put("max_attempts", written.job().maxAttempts());
		if (written.nextRetryAt() != null) {
			response.put("next_retry_at", JobJson.timestamp(written.nextRetryAt()));
			response.put("next_attempt_at", JobJson.timestamp(written.nextRetryAt()));
			response.put("retry_delay_ms", Math.max(0, Duration.between(written.at(), written.nextRetryAt()).toMillis()));
		}
		else {
			// the nack ended the job: it ran, so it has completed_at as well (L0-LC-006)
			response.put("completed_at", JobJson.timestamp(written.at()));
			response.put("discarded_at", JobJson.timestamp(written.at()));
			response.put("dead_letter", written.deadLetter());
		}
		this.workers.find(id).ifPresent((job) -> response.put("job", this.jobJson.job(job, Instant.now())));
		return response;
	}

	/** §10.4 BEAT: extends the worker's reservations and tells it its directive. */
	@PostMapping(OjsHttp.BASE_PATH + "/workers/heartbeat")
	Map<String, Object> heartbeat(@RequestBody(required = false) @Nullable String body) {
		JsonNode request = Bodies.object(body, this.jsonMapper);
		String workerId = Bodies.optionalString(request, "worker_id", MAX_WORKER_ID_LENGTH);
		if (workerId == null) {
			throw EnqueueRequest.invalid("worker_id", "The 'worker_id' field is required.", "string", null);
		}
		Set<String> ids = new LinkedHashSet<>(names(request, "active_jobs", false, null, 64));
		String single = Bodies.optionalString(request, "job_id", 64);
		if (single != null) {
			ids.add(single);
		}
		if (ids.size() > MAX_FETCH) {
			throw EnqueueRequest.invalid("active_jobs", "At most " + MAX_FETCH + " active jobs per heartbeat.", "array",
					request.get("active_jobs"));
		}
		OjsExternalWorkers.Heartbeat beat = this.workers.heartbeat(workerId, ids, visibility(request));
		WorkerDirectives.Directive directive = this.directives.directive(workerId);
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("state", directive.value());
		response.put("directive", (directive == WorkerDirectives.Directive.RUNNING) ? "" : directive.value());
		response.put("jobs_extended", beat.extended());
		response.put("jobs_lost", beat.lost());
		response.put("server_time", JobJson.timestamp(Instant.now()));
		return response;
	}

	/** The reservation asked for, or {@code null} for the service's default. */
	private static @Nullable Duration visibility(JsonNode request) {
		long millis = Bodies.integer(request, "visibility_timeout_ms", 1, OjsExternalWorkers.MAX_VISIBILITY.toMillis(),
				-1);
		return (millis < 0) ? null : Duration.ofMillis(millis);
	}

	/** A list of names, each checked against {@code pattern} when given. */
	private static List<String> names(JsonNode request, String field, boolean required,
			java.util.regex.@Nullable Pattern pattern, int maxLength) {
		JsonNode node = request.get(field);
		if (node == null || node.isNull()) {
			if (required) {
				throw EnqueueRequest.invalid(field, "The '" + field + "' field is required.", "array", node);
			}
			return List.of();
		}
		if (!node.isArray() || (required && node.isEmpty()) || node.size() > MAX_FETCH) {
			throw EnqueueRequest.invalid(field, "The '" + field + "' field must be an array of at most " + MAX_FETCH
					+ " strings" + (required ? ", not empty." : "."), "array", node);
		}
		List<String> names = new ArrayList<>(node.size());
		for (JsonNode name : node) {
			if (!name.isString() || name.stringValue().isEmpty() || name.stringValue().length() > maxLength
					|| (pattern != null && !pattern.matcher(name.stringValue()).matches())) {
				throw EnqueueRequest.invalid(field, "The '" + field + "' field holds an invalid name.", "name", name);
			}
			if (!names.contains(name.stringValue())) {
				names.add(name.stringValue());
			}
		}
		return names;
	}

	private record NackError(JobError error, boolean retryable) {

	}

	/** The nack's {@code error} (decision 7). */
	private NackError nackError(@Nullable JsonNode node) {
		if (node == null || !node.isObject()) {
			throw EnqueueRequest.invalid("error", "The 'error' field is required and must be a JSON object.", "object",
					node);
		}
		String message = Bodies.optionalString(node, "message", 10_000);
		String type = Bodies.optionalString(node, "type", 255);
		String code = Bodies.optionalString(node, "code", 255);
		ErrorCode handlerCode = null;
		if (code != null) {
			try {
				handlerCode = ErrorCode.valueOf(code.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				// a binding error code such as handler_error: the error's type when it has none
				type = (type != null) ? type : code;
			}
		}
		JsonNode retryable = node.get("retryable");
		if (retryable != null && !retryable.isNull() && !retryable.isBoolean()) {
			throw EnqueueRequest.invalid("error.retryable", "The 'error.retryable' field must be a boolean.", "boolean",
					retryable);
		}
		JsonNode details = node.get("details");
		if (details != null && !details.isNull() && !details.isObject()) {
			throw EnqueueRequest.invalid("error.details", "The 'error.details' field must be a JSON object.", "object",
					details);
		}
		@SuppressWarnings("unchecked")
		Map<String, Object> detailMap = (details != null && details.isObject())
				? this.jsonMapper.convertValue(details, Map.class) : Map.of();
		JobError error = new JobError((type != null) ? type : "handler_error", (message != null) ? message : "",
				(handlerCode != null) ? handlerCode : ErrorCode.RETRY, detailMap);
		boolean isRetryable = handlerCode != null || retryable == null || retryable.isNull() || retryable.booleanValue();
		return new NackError(error, isRetryable);
	}

	private static RemoteAttempts.Written written(RemoteAttempts.Outcome outcome) {
		if (outcome instanceof RemoteAttempts.Written written) {
			return written;
		}
		throw refusal((RemoteAttempts.Refused) outcome);
	}

	/** A refused outcome as the binding answers it: {@code 404} without the job, else {@code 409}. */
	static ApiException refusal(RemoteAttempts.Refused refused) {
		Job job = refused.job();
		if (job == null) {
			return new ApiException(404, ApiError.NOT_FOUND, refused.reason(), false, Map.of("resource_type", "job"));
		}
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("job_id", job.id());
		details.put("current_state", job.state().value());
		details.put("expected_state", JobState.ACTIVE.value());
		return new ApiException(409, ApiError.CONFLICT, refused.reason(), false, details);
	}

}

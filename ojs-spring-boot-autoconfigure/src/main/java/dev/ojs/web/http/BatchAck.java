package dev.ojs.web.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.json.JobJson;
import dev.ojs.job.JobState;
import dev.ojs.spring.OjsExternalWorkers;
import dev.ojs.web.ApiException;
import dev.ojs.worker.RemoteAttempts;

/**
 * The batch ack, extension {@code x-batch-ack} of ACK (ojs-http-binding.md §10.2, not part of
 * the declared conformance): {@code {"worker_id", "acks": [{"job_id", "result"}, ...]}} acks up
 * to {@value OjsExternalWorkers#MAX_FETCH} jobs in one request and one transaction. The answer
 * is {@code 200} with {@code acks}, one entry per distinct job id in the order given: the single
 * ack's answer fields ({@code acknowledged: true}, {@code job_id}, {@code state},
 * {@code completed_at}), or {@code acknowledged: false} with the {@code error} body the single
 * ack would have been refused with ({@code 404 not_found}, {@code 409 conflict}) and its
 * {@code status}.
 */
final class BatchAck {

	private BatchAck() {
	}

	/** The job ids of the request, each with its result as JSON or {@code null}. */
	static Map<String, @Nullable String> read(JsonNode request, JsonMapper jsonMapper) {
		JsonNode acks = request.get("acks");
		if (acks == null || !acks.isArray() || acks.isEmpty() || acks.size() > OjsExternalWorkers.MAX_FETCH) {
			throw EnqueueRequest.invalid("acks", "The 'acks' field must be an array of 1 to "
					+ OjsExternalWorkers.MAX_FETCH + " objects.", "array", acks);
		}
		Map<String, @Nullable String> resultsById = new LinkedHashMap<>();
		for (JsonNode ack : acks) {
			if (!ack.isObject()) {
				throw EnqueueRequest.invalid("acks", "Each entry of 'acks' must be an object.", "object", ack);
			}
			JsonNode result = ack.get("result");
			resultsById.putIfAbsent(Bodies.string(ack, "job_id"),
					(result == null || result.isNull()) ? null : jsonMapper.writeValueAsString(result));
		}
		return resultsById;
	}

	/** The answer: each id's outcome, as the single ack answers it. */
	static Map<String, Object> answer(Map<String, RemoteAttempts.Outcome> outcomes) {
		List<Map<String, Object>> acks = new ArrayList<>(outcomes.size());
		outcomes.forEach((id, outcome) -> {
			Map<String, Object> one = new LinkedHashMap<>();
			one.put("job_id", id);
			if (outcome instanceof RemoteAttempts.Written written) {
				one.put("acknowledged", true);
				one.put("state", JobState.COMPLETED.value());
				one.put("completed_at", JobJson.timestamp(written.at()));
			}
			else {
				ApiException refusal = OjsWorkersController.refusal((RemoteAttempts.Refused) outcome);
				one.put("acknowledged", false);
				one.put("status", refusal.status());
				one.put("error", refusal.toError(null).toBody().get("error"));
			}
			acks.add(one);
		});
		return Map.of("acks", acks);
	}

}

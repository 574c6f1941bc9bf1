package dev.ojs.web.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.JobState;
import dev.ojs.spring.OjsJobs;
import dev.ojs.web.ApiException;

/**
 * Bulk retry, cancel and delete by filter (ojs-admin-api.md §8): without {@code confirm} the
 * answer is the count that would be touched and nothing changes; with it at most
 * {@code limit} jobs are acted on per call, oldest first, and the effect is reported
 * ({@code truncated} tells the caller to repeat).
 */
final class BulkOperations {

	/** Counts of bulk matches are exact up to this many. */
	private static final long EXACT_MATCHES = 10_000;

	private static final Set<JobState> RETRYABLE = Set.of(JobState.DISCARDED, JobState.CANCELLED);

	private final OjsJobs jobs;

	private final int limit;

	BulkOperations(OjsJobs jobs, int limit) {
		this.jobs = jobs;
		this.limit = limit;
	}

	Map<String, Object> run(String action, JobQuery query, boolean confirm) {
		check(action, query);
		JobCount matched = this.jobs.count(query, EXACT_MATCHES);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("action", action);
		body.put("matched", matched.value());
		body.put("matched_is_estimate", matched.estimate());
		if (!confirm) {
			body.put("confirm_required", true);
			return body;
		}
		List<String> ids = this.jobs.ids(query, this.limit);
		List<Map<String, Object>> errors = new ArrayList<>();
		int succeeded = switch (action) {
			case "retry" -> this.jobs.retry(ids);
			case "delete" -> this.jobs.delete(ids);
			// set-based, as a single cancel each: only live jobs, an active one marked so its outcome is refused
			default -> this.jobs.cancel(ids);
		};
		int failed = ids.size() - succeeded;
		if (errors.isEmpty() && failed > 0) {
			errors.add(Map.of("code", "conflict", "message",
					failed + " jobs changed state meanwhile or hold a unique key another live job has", "count",
					failed));
		}
		body.put("succeeded", succeeded);
		body.put("failed", failed);
		body.put("errors", errors);
		body.put("limit", this.limit);
		body.put("truncated", matched.value() > ids.size() && ids.size() == this.limit);
		return body;
	}

	/** Each action needs a state it applies to, so that a filter cannot sweep unrelated jobs. */
	private static void check(String action, JobQuery query) {
		JobState state = query.state();
		boolean valid = switch (action) {
			case "retry" -> state != null && RETRYABLE.contains(state);
			case "cancel" -> state != null && !state.isTerminal();
			case "delete" -> state != null && state.isTerminal();
			default -> throw ApiException.notFound("Unknown bulk action '" + action + "': retry, cancel or delete");
		};
		if (!valid) {
			String states = switch (action) {
				case "retry" -> "discarded, cancelled or dead_letter";
				case "cancel" -> "scheduled, available, active or retryable";
				default -> "completed, discarded, cancelled or dead_letter";
			};
			throw ApiException.invalidRequest("Bulk " + action + " needs filter.state " + states,
					Map.of("field", "filter.state"));
		}
	}

}

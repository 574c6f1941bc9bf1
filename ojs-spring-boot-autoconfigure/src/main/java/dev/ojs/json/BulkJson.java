package dev.ojs.json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ojs.spring.BulkResult;

/**
 * The Admin API's answer to a bulk retry, cancel or delete by filter (ojs-admin-api.md §8),
 * of jobs and of dead letters alike: the count alone until confirmed, then what was done.
 */
public final class BulkJson {

	private BulkJson() {
	}

	/**
	 * @param action {@code retry}, {@code cancel} or {@code delete}
	 * @param bulk what it matched and did
	 */
	public static Map<String, Object> bulk(String action, BulkResult bulk) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("action", action);
		body.put("matched", bulk.matched());
		body.put("matched_is_estimate", bulk.matchedIsEstimate());
		if (!bulk.confirmed()) {
			body.put("confirm_required", true);
			return body;
		}
		body.put("succeeded", bulk.succeeded());
		body.put("failed", bulk.failed());
		body.put("errors", (bulk.failed() > 0) ? List.of(Map.of("code", "conflict", "message",
				bulk.failed() + " jobs changed state meanwhile or hold a unique key another live job has", "count",
				bulk.failed())) : List.of());
		body.put("limit", bulk.limit());
		body.put("truncated", bulk.truncated());
		return body;
	}

}

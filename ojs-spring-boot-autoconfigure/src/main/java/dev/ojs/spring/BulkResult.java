package dev.ojs.spring;

import java.util.List;
import java.util.function.ToIntFunction;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobCount;
import dev.ojs.admin.JobQuery;

/**
 * What a bulk retry, cancel or delete by filter matched and did (ojs-admin-api.md §8), for
 * jobs ({@link OjsJobs#bulk}) and dead letters ({@link OjsDeadLetters#retry(JobQuery, boolean, int)})
 * alike: without confirmation only the count, with it at most {@code limit} jobs acted on,
 * oldest first.
 *
 * @param matched how many jobs match
 * @param matchedIsEstimate whether {@code matched} is an estimate (beyond
 * {@value #EXACT_MATCHES})
 * @param confirmed whether the operation ran; otherwise only counted
 * @param succeeded how many were acted on
 * @param failed how many changed meanwhile or hold a unique key another live job has
 * @param limit the most one call acts on
 * @param truncated whether more match than one call acts on: repeat the call
 */
public record BulkResult(long matched, boolean matchedIsEstimate, boolean confirmed, int succeeded, int failed,
		int limit, boolean truncated) {

	/** Counts of bulk matches are exact up to this many. */
	public static final long EXACT_MATCHES = 10_000;

	/**
	 * Counts the jobs matching the query and, if confirmed, applies {@code action} to the
	 * ids of up to {@code limit} of them, oldest first.
	 * @param action acts on ids and returns on how many it did
	 */
	static BulkResult run(AdminStore admin, JobQuery query, boolean confirm, int limit,
			ToIntFunction<List<String>> action) {
		JobCount matched = admin.count(query, EXACT_MATCHES);
		if (!confirm) {
			return new BulkResult(matched.value(), matched.estimate(), false, 0, 0, limit, false);
		}
		List<String> ids = admin.ids(query, limit);
		int succeeded = action.applyAsInt(ids);
		return new BulkResult(matched.value(), matched.estimate(), true, succeeded, ids.size() - succeeded, limit,
				matched.value() > ids.size() && ids.size() == limit);
	}

}

package dev.ojs.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ojs.admin.DeadLetterGroup;
import dev.ojs.job.DeadLetterStats;
import dev.ojs.spring.OjsDeadLetters;

/**
 * The dead letter queue as JSON: its groups and its summary ({@link BulkJson} shows a bulk
 * retry or delete, of jobs and dead letters alike). A dead letter itself is a job, shown by
 * each surface's job view. The surfaces
 * summarise the queue differently, each for its readers:
 * <ul>
 * <li>the Admin API groups dead letters by latest error type, job type and queue
 * ({@link #groups}, ojs-admin-api.md §11), so that an operator retries or deletes one cause
 * at once: snake_case, instants as stored, a sample message per group;</li>
 * <li>the HTTP binding counts them by queue and by latest error type ({@link #stats},
 * ojs-http-binding.md §12), with the binding's millisecond timestamps;</li>
 * <li>the {@code deadletters} actuator endpoint shows the same counts, and each dead letter
 * with its retry policy, as the endpoint's camelCase descriptors
 * ({@code dev.ojs.spring.actuate.DeadLettersEndpoint}), which Spring Boot writes alike over
 * HTTP and JMX.</li>
 * </ul>
 */
public final class DeadLetterJson {

	private DeadLetterJson() {
	}

	/** The Admin API's groups, the largest first, and how many dead letters they hold. */
	public static Map<String, Object> groups(List<OjsDeadLetters.Group> groups) {
		List<Map<String, Object>> items = new ArrayList<>(groups.size());
		long total = 0;
		for (OjsDeadLetters.Group group : groups) {
			items.add(group(group));
			total += group.group().count();
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("items", items);
		body.put("total", total);
		return body;
	}

	/** One group of the Admin API. */
	public static Map<String, Object> group(OjsDeadLetters.Group sampled) {
		DeadLetterGroup group = sampled.group();
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("error_type", group.errorType());
		view.put("type", group.type());
		view.put("queue", group.queue());
		view.put("count", group.count());
		view.put("oldest_at", JobJson.Surface.ADMIN.time(group.oldestAt()));
		view.put("newest_at", JobJson.Surface.ADMIN.time(group.newestAt()));
		view.put("sample_message", sampled.sampleMessage());
		return view;
	}

	/** The binding's summary (ojs-http-binding.md §12). */
	public static Map<String, Object> stats(DeadLetterStats stats) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("total", stats.total());
		body.put("by_queue", stats.byQueue());
		body.put("by_error_type", stats.byErrorType());
		body.put("oldest", JobJson.Surface.BINDING.time(stats.oldest()));
		body.put("newest", JobJson.Surface.BINDING.time(stats.newest()));
		return body;
	}

}

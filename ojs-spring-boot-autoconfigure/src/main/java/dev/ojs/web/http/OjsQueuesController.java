package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsQueues;
import dev.ojs.job.QueueState;
import dev.ojs.web.ApiException;
import dev.ojs.web.QueueNames;
import dev.ojs.web.RateLimits;

/**
 * Queues over the binding (ojs-http-binding.md §11, spec README decision 20): list, exact
 * counts per state, pause and resume on the same {@link JobStore} operations as the rest of
 * the starter. A queue that never held a job can be paused (it is created); enqueues into a
 * paused queue succeed and its jobs wait; no worker, in process or over HTTP, fetches from it.
 */
@RestController
public class OjsQueuesController {

	private static final String PATH = OjsHttp.BASE_PATH + "/queues";

	private final JobStore store;

	private final OjsQueues queues;

	private final @Nullable AdminStore admin;

	/**
	 * @param store the job store, for counts
	 * @param queues pauses and resumes, as every edge does (logged, and this node's worker
	 * told at once)
	 * @param admin the per-minute statistics behind the stats' throughput, or {@code null}
	 * when the store keeps none
	 */
	public OjsQueuesController(JobStore store, OjsQueues queues, @Nullable AdminStore admin) {
		this.store = store;
		this.queues = queues;
		this.admin = admin;
	}

	/** §11.1: every queue that holds jobs or was ever paused, by name. */
	@GetMapping(PATH)
	Map<String, Object> list() {
		Map<String, QueueState> states = states();
		Map<String, Map<String, Object>> queues = new TreeMap<>();
		this.store.countByQueueAndState().keySet().forEach((name) -> queues.put(name, queue(name, states.get(name))));
		states.forEach((name, state) -> queues.put(name, queue(name, state)));
		List<Map<String, Object>> list = List.copyOf(queues.values());
		Map<String, Object> pagination = new LinkedHashMap<>();
		pagination.put("total", list.size());
		pagination.put("limit", list.size());
		pagination.put("offset", 0);
		pagination.put("has_more", false);
		return Map.of("queues", list, "pagination", pagination);
	}

	/** §11.2: exact counts of the queue's jobs per state, and its throughput over the last hour. */
	@GetMapping(PATH + "/{name}/stats")
	Map<String, Object> stats(@PathVariable String name) {
		validName(name);
		Map<JobState, Long> counts = this.store.countByQueueAndState().getOrDefault(name, Map.of());
		QueueState state = states().get(name);
		Map<String, Object> stats = new LinkedHashMap<>();
		long total = 0;
		for (JobState jobState : JobState.values()) {
			long count = counts.getOrDefault(jobState, 0L);
			stats.put(jobState.value(), count);
			total += count;
		}
		stats.put("total", total);
		if (this.admin != null) {
			// L4-STATS-001: throughput, from the per-minute statistics of the last hour
			Instant now = this.admin.now();
			long completed = 0;
			long failed = 0;
			for (StatsBucket bucket : this.admin.stats(now.minus(Duration.ofHours(1)), now, 60, name)) {
				completed += bucket.completed();
				failed += bucket.failed();
			}
			stats.put("completed_last_hour", completed);
			stats.put("failed_last_hour", failed);
			stats.put("throughput_per_second", completed / 3600.0);
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("queue", name);
		body.put("status", (state != null && state.paused()) ? "paused" : "active");
		body.put("stats", stats);
		body.put("computed_at", JobJson.timestamp(Instant.now()));
		return body;
	}

	/** §11.3. */
	@PostMapping(PATH + "/{name}/pause")
	Map<String, Object> pause(@PathVariable String name) {
		validName(name);
		return queue(name, this.queues.pause(name));
	}

	/** §11.4. */
	@PostMapping(PATH + "/{name}/resume")
	Map<String, Object> resume(@PathVariable String name) {
		validName(name);
		return queue(name, this.queues.resume(name));
	}

	private Map<String, QueueState> states() {
		Map<String, QueueState> states = new TreeMap<>();
		this.store.queueStates().forEach((state) -> states.put(state.name(), state));
		return states;
	}

	private static Map<String, Object> queue(String name, QueueState state) {
		Map<String, Object> queue = new LinkedHashMap<>();
		queue.put("name", name);
		queue.put("queue", name);
		boolean paused = state != null && state.paused();
		queue.put("status", paused ? "paused" : "active");
		queue.put("paused", paused);
		if (paused) {
			queue.put("paused_at", JobJson.timestamp(state.pausedAt()));
		}
		if (state != null && state.rateLimit() != null) {
			queue.put("rate_limit", RateLimits.view(state.rateLimit()));
		}
		return queue;
	}

	private static void validName(String name) {
		QueueNames.check(name, "name");
	}

}

package dev.ojs.web.http;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.StatsBucket;
import dev.ojs.json.QueueJson;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.QueueInfo;
import dev.ojs.web.PathVariables;

/**
 * Queues over the binding (ojs-http-binding.md §11, spec README decision 20): list, exact
 * counts per state, pause and resume through {@link OjsQueues}, as every edge does (logged,
 * and this node's worker told at once). A queue that never held a job can be paused (it is
 * created); enqueues into a paused queue succeed and its jobs wait; no worker, in process or
 * over HTTP, fetches from it.
 */
@RestController
public class OjsQueuesController {

	private static final String PATH = OjsHttp.BASE_PATH + "/queues";

	private final OjsQueues queues;

	/**
	 * @param queues the queues; with statistics ({@link OjsQueues#hasStatistics()}) the stats
	 * show the last hour's throughput
	 */
	public OjsQueuesController(OjsQueues queues) {
		this.queues = queues;
	}

	/** §11.1: every queue that holds jobs or was ever paused, by name. */
	@GetMapping(PATH)
	Map<String, Object> list() {
		List<Map<String, Object>> list = this.queues.queues()
			.stream()
			.map((queue) -> QueueJson.binding(queue.state()))
			.toList();
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
		QueueInfo queue = PathVariables.named("name", () -> this.queues.queue(name));
		List<StatsBucket> lastHour = null;
		if (this.queues.hasStatistics()) {
			// L4-STATS-001: throughput, from the per-minute statistics of the last hour
			Instant now = this.queues.now();
			lastHour = this.queues.stats(now.minus(Duration.ofHours(1)), now, 60, name);
		}
		return QueueJson.bindingStats(name, queue.paused(), queue.counts(), lastHour, Instant.now());
	}

	/** §11.3, L4-PAUSE-001: the queue, as {@code {"queue": {...}}}. */
	@PostMapping(PATH + "/{name}/pause")
	Map<String, Object> pause(@PathVariable String name) {
		return QueueJson.bindingAnswer(PathVariables.named("name", () -> this.queues.pause(name)));
	}

	/** §11.4, L4-PAUSE-002: the queue, as {@code {"queue": {...}}}. */
	@PostMapping(PATH + "/{name}/resume")
	Map<String, Object> resume(@PathVariable String name) {
		return QueueJson.bindingAnswer(PathVariables.named("name", () -> this.queues.resume(name)));
	}

}

package dev.ojs.web.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsWorker;
import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.QueueNames;
import dev.ojs.web.RateLimits;

/**
 * Queues (ojs-admin-api.md §6): list with counts, latency of the oldest ready job and
 * throughput over the last minutes; detail; pause, resume and purge of terminal jobs.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/queues")
public class AdminQueuesController {

	/** Throughput is averaged over this many minutes. */
	static final int THROUGHPUT_MINUTES = 5;

	private static final int PURGE_LIMIT = 10_000;

	private final AdminStore admin;

	private final OjsQueues queues;

	private final ObjectProvider<OjsWorker> worker;

	public AdminQueuesController(AdminStore admin, OjsQueues queues, ObjectProvider<OjsWorker> worker) {
		this.admin = admin;
		this.queues = queues;
		this.worker = worker;
	}

	@GetMapping
	public Map<String, Object> list() {
		Instant now = this.admin.now();
		Map<String, StatsBucket> recent = recent(now);
		Map<String, RateLimit> rateLimits = this.queues.rateLimits();
		List<Map<String, Object>> items = this.admin.queues().stream().map((queue) -> {
			Map<String, Object> view = AdminViews.queue(queue, recent.get(queue.name()), THROUGHPUT_MINUTES, now);
			view.put("rate_limit", rateLimit(rateLimits.get(queue.name())));
			return view;
		}).toList();
		return AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
	}

	@GetMapping("/{name}")
	public Map<String, Object> queue(@PathVariable String name) {
		QueueNames.check(name, "name");
		QueueSummary queue = this.admin.queue(name).orElse(null);
		Integer concurrency = concurrency(name);
		if (queue == null && concurrency == null) {
			throw ApiException.notFound("No queue " + name);
		}
		if (queue == null) {
			queue = new QueueSummary(name, Map.of(), 0, null, false, null, false);
		}
		Instant now = this.admin.now();
		Map<String, Object> view = AdminViews.queue(queue, recent(now).get(name), THROUGHPUT_MINUTES, now);
		view.put("configuration", configuration(concurrency, this.queues.rateLimit(name)));
		return view;
	}

	/**
	 * §6.6: sets or removes ({@code "rate_limit": null}) the queue's rate limit, on every node;
	 * {@code concurrency} is each node's {@code ojs.worker.queues} setting and not changed here.
	 */
	@PutMapping("/{name}/config")
	public Map<String, Object> configure(@PathVariable String name,
			@RequestBody(required = false) @Nullable Map<String, Object> body) {
		QueueNames.check(name, "name");
		if (body == null || !body.containsKey("rate_limit")) {
			throw ApiException.invalidRequest("The body must set 'rate_limit' (an object, or null to remove it)",
					Map.of("field", "rate_limit"));
		}
		for (String field : body.keySet()) {
			if (!field.equals("rate_limit")) {
				throw new ApiException(422, ApiError.UNSUPPORTED, "Only 'rate_limit' can be configured here; '"
						+ field + "' cannot", false, Map.of("field", field));
			}
		}
		Object value = body.get("rate_limit");
		RateLimit limit = (value != null) ? RateLimits.read(value, "rate_limit") : null;
		QueueState state = this.queues.setRateLimit(name, limit);
		Map<String, Object> view = state(state);
		view.put("configuration", configuration(concurrency(name), state.rateLimit()));
		return view;
	}

	private static Map<String, Object> configuration(@Nullable Integer concurrency, @Nullable RateLimit rateLimit) {
		Map<String, Object> configuration = new LinkedHashMap<>();
		configuration.put("concurrency", concurrency);
		configuration.put("rate_limit", rateLimit(rateLimit));
		return configuration;
	}

	/** The rate limit as the binding shows it, plus {@code period_ms} for the dashboard. */
	private static @Nullable Map<String, Object> rateLimit(@Nullable RateLimit rateLimit) {
		if (rateLimit == null) {
			return null;
		}
		Map<String, Object> view = RateLimits.view(rateLimit);
		view.put("period_ms", rateLimit.period().toMillis());
		return view;
	}

	@PostMapping("/{name}/pause")
	public Map<String, Object> pause(@PathVariable String name) {
		QueueNames.check(name, "name");
		return state(this.queues.pause(name));
	}

	@PostMapping("/{name}/resume")
	public Map<String, Object> resume(@PathVariable String name) {
		QueueNames.check(name, "name");
		return state(this.queues.resume(name));
	}

	/** Deletes terminal jobs of the queue: counts first, acts with {@code confirm: true}. */
	@DeleteMapping("/{name}/jobs")
	public Map<String, Object> purge(@PathVariable String name,
			@RequestBody(required = false) @Nullable Map<String, Object> body) {
		QueueNames.check(name, "name");
		Map<String, Object> request = (body != null) ? body : Map.of();
		Set<JobState> states = states(request.get("states"));
		Instant olderThan = JobFilters.instant("older_than", JobFilters.text(request, "older_than"));
		Map<String, Object> answer = new LinkedHashMap<>();
		if (!Boolean.TRUE.equals(request.get("confirm"))) {
			answer.put("would_purge", this.admin.countPurgeable(name, states, olderThan));
			answer.put("confirm_required", true);
			return answer;
		}
		int purged = this.admin.purge(name, states, olderThan, PURGE_LIMIT);
		answer.put("purged_count", purged);
		answer.put("states", states.stream().map(JobState::value).sorted().toList());
		answer.put("truncated", purged == PURGE_LIMIT);
		return answer;
	}

	private static Set<JobState> states(@Nullable Object value) {
		if (!(value instanceof List<?> list) || list.isEmpty()) {
			throw ApiException.invalidRequest("states must be a non-empty array of terminal states",
					Map.of("field", "states"));
		}
		Set<JobState> states = EnumSet.noneOf(JobState.class);
		for (Object item : list) {
			JobState state;
			try {
				state = JobState.fromValue(String.valueOf(item));
			}
			catch (IllegalArgumentException ex) {
				throw ApiException.invalidRequest("Unknown state '" + item + "'", Map.of("field", "states"));
			}
			if (!state.isTerminal()) {
				throw ApiException.invalidRequest(
						"Only terminal states (completed, discarded, cancelled) may be purged, not " + item,
						Map.of("field", "states"));
			}
			states.add(state);
		}
		return states;
	}

	private Map<String, StatsBucket> recent(Instant now) {
		return this.admin.statsByQueue(now.minus(Duration.ofMinutes(THROUGHPUT_MINUTES)), now);
	}

	private @Nullable Integer concurrency(String name) {
		OjsWorker worker = this.worker.getIfAvailable();
		return (worker != null) ? worker.status().queues().get(name) : null;
	}

	static Map<String, Object> state(QueueState state) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", state.name());
		view.put("paused", state.paused());
		view.put("paused_at", AdminViews.time(state.pausedAt()));
		return view;
	}

}

package dev.ojs.web.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.json.QueueJson;
import dev.ojs.spring.OjsNames;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsWorker;
import dev.ojs.web.ApiException;
import dev.ojs.web.PathVariables;
import dev.ojs.web.RateLimits;

/**
 * Queues (ojs-admin-api.md §6) through {@link OjsQueues}: list with counts, latency of the
 * oldest ready job and throughput over the last minutes; detail; pause, resume, rate and
 * concurrency limits and purge of terminal jobs.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH + "/queues")
public class AdminQueuesController {

	/** The fields of a queue's configuration that can be changed. */
	private static final Set<String> CONFIGURABLE = Set.of("concurrency", "rate_limit");

	/** Throughput is averaged over this many minutes. */
	static final int THROUGHPUT_MINUTES = 5;

	private static final int PURGE_LIMIT = 10_000;

	private final OjsQueues queues;

	private final ObjectProvider<OjsWorker> worker;

	public AdminQueuesController(OjsQueues queues, ObjectProvider<OjsWorker> worker) {
		this.queues = queues;
		this.worker = worker;
	}

	@GetMapping
	public Map<String, Object> list() {
		Instant now = this.queues.now();
		Map<String, StatsBucket> recent = recent(now);
		Map<String, RateLimit> rateLimits = this.queues.rateLimits();
		Map<String, Integer> concurrencies = this.queues.concurrencies();
		List<Map<String, Object>> items = this.queues.summaries().stream().map((queue) -> {
			Map<String, Object> view = QueueJson.admin(queue, recent.get(queue.name()), THROUGHPUT_MINUTES, now);
			view.put("rate_limit", QueueJson.adminRateLimit(rateLimits.get(queue.name())));
			view.put("concurrency", concurrencies.get(queue.name()));
			return view;
		}).toList();
		return AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
	}

	@GetMapping("/{name}")
	public Map<String, Object> queue(@PathVariable String name) {
		QueueSummary queue = PathVariables.named("name", () -> this.queues.summary(name)).orElse(null);
		Integer nodeConcurrency = nodeConcurrency(name);
		if (queue == null && nodeConcurrency == null) {
			throw ApiException.notFound("No queue " + name);
		}
		if (queue == null) {
			queue = new QueueSummary(name, Map.of(), 0, null, false, null, false);
		}
		Instant now = this.queues.now();
		Map<String, Object> view = QueueJson.admin(queue, recent(now).get(name), THROUGHPUT_MINUTES, now);
		QueueState state = new QueueState(name, queue.paused(), queue.pausedAt(), this.queues.rateLimit(name),
				this.queues.concurrency(name));
		view.put("configuration", QueueJson.adminConfiguration(state, nodeConcurrency));
		return view;
	}

	/**
	 * §6.6: sets or removes ({@code null}) the queue's rate limit ({@code rate_limit}) and its
	 * concurrency limit ({@code concurrency}) on every node; a field left out stays as it is.
	 */
	@PutMapping("/{name}/config")
	public Map<String, Object> configure(@PathVariable String name,
			@RequestBody(required = false) @Nullable Map<String, Object> body) {
		// the service's rule, applied before the body is read: a bad name is the answer whatever the body
		PathVariables.named("name", () -> OjsNames.checkQueue(name, "queue"));
		AdminViews.configuration(body, CONFIGURABLE, "'concurrency' and 'rate_limit'", "rate_limit",
				"The body must set 'concurrency' (an integer, or null to remove the limit) or 'rate_limit' (an"
						+ " object, or null to remove it)");
		// both read before either is set: a bad one changes nothing
		Integer concurrency = body.containsKey("concurrency") ? limit(body.get("concurrency"), "concurrency") : null;
		Object value = body.get("rate_limit");
		RateLimit limit = (value != null) ? RateLimits.read(value, "rate_limit") : null;
		QueueState state = null;
		if (body.containsKey("concurrency")) {
			state = PathVariables.named("name", () -> this.queues.setConcurrency(name, concurrency));
		}
		if (body.containsKey("rate_limit")) {
			state = PathVariables.named("name", () -> this.queues.setRateLimit(name, limit));
		}
		Map<String, Object> view = QueueJson.adminState(Objects.requireNonNull(state));
		view.put("configuration", QueueJson.adminConfiguration(state, nodeConcurrency(name)));
		return view;
	}

	/** A concurrency limit from a body's {@code field}: a whole number of at least 1, or {@code null}. */
	static @Nullable Integer limit(@Nullable Object value, String field) {
		if (value == null) {
			return null;
		}
		if (!(value instanceof Integer limit) || limit < 1) {
			throw ApiException.invalidRequest(
					"The '" + field + "' must be an integer of at least 1, or null to remove the limit.",
					Map.of("field", field));
		}
		return limit;
	}

	@PostMapping("/{name}/pause")
	public Map<String, Object> pause(@PathVariable String name) {
		return QueueJson.adminState(PathVariables.named("name", () -> this.queues.pause(name)));
	}

	@PostMapping("/{name}/resume")
	public Map<String, Object> resume(@PathVariable String name) {
		return QueueJson.adminState(PathVariables.named("name", () -> this.queues.resume(name)));
	}

	/** Deletes terminal jobs of the queue: counts first, acts with {@code confirm: true}. */
	@DeleteMapping("/{name}/jobs")
	public Map<String, Object> purge(@PathVariable String name,
			@RequestBody(required = false) @Nullable Map<String, Object> body) {
		// the service's rule, applied before the body is read: a bad name is the answer whatever the body
		PathVariables.named("name", () -> OjsNames.checkQueue(name, "queue"));
		Map<String, Object> request = (body != null) ? body : Map.of();
		Set<JobState> states = states(request.get("states"));
		Instant olderThan = JobFilters.instant("older_than", JobFilters.text(request, "older_than"));
		Map<String, Object> answer = new LinkedHashMap<>();
		if (!Boolean.TRUE.equals(request.get("confirm"))) {
			answer.put("would_purge", this.queues.countPurgeable(name, states, olderThan));
			answer.put("confirm_required", true);
			return answer;
		}
		int purged = this.queues.purge(name, states, olderThan, PURGE_LIMIT);
		answer.put("purged_count", purged);
		answer.put("states", states.stream().map(JobState::value).sorted().toList());
		answer.put("truncated", purged == PURGE_LIMIT);
		return answer;
	}

	private static Set<JobState> states(@Nullable Object value) {
		if (!(value instanceof List<?> list)) {
			throw ApiException.invalidRequest("states must be a non-empty array of terminal states",
					Map.of("field", "states"));
		}
		return OjsQueues.purgeStates(list);
	}

	private Map<String, StatsBucket> recent(Instant now) {
		return this.queues.statsByQueue(now.minus(Duration.ofMinutes(THROUGHPUT_MINUTES)), now);
	}

	/** This node's worker slots for the queue, or {@code null} when it does not serve the queue. */
	private @Nullable Integer nodeConcurrency(String name) {
		OjsWorker worker = this.worker.getIfAvailable();
		return (worker != null) ? worker.status().queues().get(name) : null;
	}

}

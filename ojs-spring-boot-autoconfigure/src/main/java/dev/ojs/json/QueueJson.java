package dev.ojs.json;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.JobState;
import dev.ojs.job.QueueState;
import dev.ojs.job.RateLimit;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.QueueInfo;

/**
 * A queue as JSON: the one mapping of a queue for the HTTP binding and the Admin API (and
 * the dashboard), with the same counts per state as the actuator's {@code ojs} endpoint.
 * The two follow their own spec documents and differ as {@link JobJson.Surface} says for
 * jobs, and also:
 * <ul>
 * <li>the binding (ojs-http-binding.md §11, openapi.yaml's queue object, spec README
 * decision 20) names a queue by {@code name} and {@code queue}, gives {@code status}, and
 * writes {@code paused_at}, {@code rate_limit} and {@code concurrency} only when the queue has them; its stats
 * count every state exactly, with a {@code total} and the last hour's throughput;</li>
 * <li>the Admin API (ojs-admin-api.md §6) writes every field, gives {@code state}, counts
 * dead letters apart from other discarded jobs (estimated on large tables), the latency of
 * the oldest ready job and the last minutes' throughput, and writes a rate limit with
 * {@code period_ms} for the dashboard.</li>
 * <li>the actuator's {@code ojs} endpoint counts every state exactly and, like the Admin API,
 * counts dead letters as {@code dead_letter} apart from other discarded jobs
 * ({@link #countsWithDeadLetters}).</li>
 * </ul>
 */
public final class QueueJson {

	private static final List<JobState> ADMIN_COUNTED = List.of(JobState.PENDING, JobState.AVAILABLE,
			JobState.ACTIVE, JobState.SCHEDULED, JobState.RETRYABLE, JobState.COMPLETED);

	private QueueJson() {
	}

	/** Jobs per state in lifecycle order, every state present (0 when it has none). */
	public static Map<String, Long> counts(Map<JobState, Long> counts) {
		Map<String, Long> json = new LinkedHashMap<>();
		for (JobState state : JobState.values()) {
			json.put(state.value(), counts.getOrDefault(state, 0L));
		}
		return json;
	}

	/**
	 * Jobs per state in lifecycle order, then {@code dead_letter}: dead letters apart from the
	 * other {@code discarded} jobs, the state's one name on the dashboard and the Admin API.
	 */
	public static Map<String, Long> countsWithDeadLetters(QueueInfo queue) {
		Map<String, Long> json = counts(queue.counts());
		json.put(JobState.DISCARDED.value(), queue.count(JobState.DISCARDED) - queue.deadLetters());
		json.put(OjsDeadLetters.STATE, queue.deadLetters());
		return json;
	}

	/**
	 * A pause's or resume's answer over the binding (§11.3, §11.4): the queue wrapped as
	 * {@code {"queue": {...}}}, as L4-PAUSE-001 and L4-PAUSE-002 read it.
	 */
	public static Map<String, Object> bindingAnswer(QueueState state) {
		return Map.of("queue", binding(state));
	}

	/** A queue over the binding (§11.1, §11.3, §11.4). */
	public static Map<String, Object> binding(QueueState state) {
		Map<String, Object> queue = new LinkedHashMap<>();
		queue.put("name", state.name());
		queue.put("queue", state.name());
		queue.put("status", state.paused() ? "paused" : "active");
		queue.put("paused", state.paused());
		if (state.paused()) {
			queue.put("paused_at", JobJson.timestamp(state.pausedAt()));
		}
		if (state.rateLimit() != null) {
			queue.put("rate_limit", rateLimit(state.rateLimit()));
		}
		if (state.concurrency() != null) {
			queue.put("concurrency", state.concurrency());
		}
		return queue;
	}

	/**
	 * A queue's stats over the binding (§11.2): exact counts per state, and with
	 * {@code lastHour} (the per-minute statistics of the last hour) the completed and failed
	 * jobs and the throughput. The queue is an object, {@code {"queue": {"name", "status",
	 * "paused", <count per state>, "total"}}}, as L4-STATS-001, L4-BULK-001 and L4-BULK-003
	 * read it; {@code status}, {@code stats} and {@code computed_at} stay beside it as §11.2
	 * writes them.
	 */
	public static Map<String, Object> bindingStats(String name, boolean paused, Map<JobState, Long> counts,
			@Nullable List<StatsBucket> lastHour, Instant computedAt) {
		Map<String, Long> perState = counts(counts);
		long total = counts.values().stream().mapToLong(Long::longValue).sum();
		Map<String, Object> stats = new LinkedHashMap<>(perState);
		stats.put("total", total);
		if (lastHour != null) {
			long completed = 0;
			long failed = 0;
			for (StatsBucket bucket : lastHour) {
				completed += bucket.completed();
				failed += bucket.failed();
			}
			stats.put("completed_last_hour", completed);
			stats.put("failed_last_hour", failed);
			stats.put("throughput_per_second", completed / 3600.0);
		}
		Map<String, Object> queue = new LinkedHashMap<>();
		queue.put("name", name);
		queue.put("status", paused ? "paused" : "active");
		queue.put("paused", paused);
		queue.putAll(perState);
		queue.put("total", total);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("queue", queue);
		body.put("status", paused ? "paused" : "active");
		body.put("stats", stats);
		body.put("computed_at", JobJson.timestamp(computedAt));
		return body;
	}

	/** A queue in the Admin API (§6.1); throughput from the last {@code minutes}' statistics. */
	public static Map<String, Object> admin(QueueSummary queue, @Nullable StatsBucket recent, int minutes,
			Instant now) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", queue.name());
		view.put("state", queue.paused() ? "paused" : "active");
		view.put("paused", queue.paused());
		view.put("paused_at", JobJson.Surface.ADMIN.time(queue.pausedAt()));
		Map<String, Object> counts = new LinkedHashMap<>();
		for (JobState state : ADMIN_COUNTED) {
			counts.put(state.value(), queue.count(state));
		}
		counts.put("discarded", queue.count(JobState.DISCARDED) - queue.deadLetters());
		counts.put("cancelled", queue.count(JobState.CANCELLED));
		counts.put("dead_letter", queue.deadLetters());
		view.put("counts", counts);
		view.put("counts_estimated", queue.countsEstimated());
		view.put("throughput", throughput(recent, minutes));
		view.put("oldest_available_at", JobJson.Surface.ADMIN.time(queue.oldestAvailableAt()));
		Instant oldest = queue.oldestAvailableAt();
		view.put("latency_ms", (oldest != null) ? Math.max(0, Duration.between(oldest, now).toMillis()) : null);
		return view;
	}

	/** A queue's state in the Admin API after a pause, resume or configuration. */
	public static Map<String, Object> adminState(QueueState state) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("name", state.name());
		view.put("paused", state.paused());
		view.put("paused_at", JobJson.Surface.ADMIN.time(state.pausedAt()));
		return view;
	}

	/**
	 * A queue's configuration in the Admin API (§6.2, §6.6): its concurrency limit on all nodes
	 * ({@code null} without one), its rate limit, and this node's worker slots for it
	 * ({@code node_concurrency}, {@code null} when this node does not serve it).
	 */
	public static Map<String, Object> adminConfiguration(QueueState state, @Nullable Integer nodeConcurrency) {
		Map<String, Object> configuration = new LinkedHashMap<>();
		configuration.put("concurrency", state.concurrency());
		configuration.put("rate_limit", adminRateLimit(state.rateLimit()));
		configuration.put("node_concurrency", nodeConcurrency);
		return configuration;
	}

	/** Jobs processed and failed per minute over the last {@code minutes}. */
	public static Map<String, Object> throughput(@Nullable StatsBucket recent, int minutes) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("processed_per_minute", (recent != null) ? (double) recent.processed() / minutes : 0.0);
		view.put("failed_per_minute", (recent != null) ? (double) recent.failed() / minutes : 0.0);
		return view;
	}

	/**
	 * A rate limit as ojs-queue-config.md writes it ({@code limit}, {@code period}), plus
	 * openapi.yaml's {@code max_per_second} when the period is one second.
	 */
	public static Map<String, Object> rateLimit(RateLimit limit) {
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("limit", limit.limit());
		view.put("period", limit.period().toString());
		if (limit.period().equals(Duration.ofSeconds(1))) {
			view.put("max_per_second", limit.limit());
		}
		return view;
	}

	/** {@link #rateLimit} plus {@code period_ms} for the dashboard, or {@code null}. */
	public static @Nullable Map<String, Object> adminRateLimit(@Nullable RateLimit limit) {
		if (limit == null) {
			return null;
		}
		Map<String, Object> view = rateLimit(limit);
		view.put("period_ms", limit.period().toMillis());
		return view;
	}

}

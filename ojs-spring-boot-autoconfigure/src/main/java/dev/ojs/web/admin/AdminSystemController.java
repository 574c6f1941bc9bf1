package dev.ojs.web.admin;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.FailingType;
import dev.ojs.admin.JobQuery;
import dev.ojs.admin.QueueSummary;
import dev.ojs.admin.StatsBucket;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.spring.OjsWorker;
import dev.ojs.web.ApiException;
import dev.ojs.web.QueueNames;
import dev.ojs.worker.NodeInfo;

/**
 * The dashboard's bootstrap ({@code system/config}: read-only, whether this user can write, the CSRF token), workers and nodes (ojs-admin-api.md §9)
 * and statistics (§10): totals, per-period history and the most failing job types.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH)
public class AdminSystemController {

	private static final int MAX_BUCKETS = 10_000;

	private static final int TOP_FAILING = 10;

	private final AdminStore admin;

	private final AdminApiSettings settings;

	private final AdminViews views;

	private final ObjectProvider<OjsWorker> worker;

	private final ObjectProvider<CsrfTokens> csrf;

	public AdminSystemController(AdminStore admin, AdminApiSettings settings, JsonMapper jsonMapper,
			ObjectProvider<OjsWorker> worker, ObjectProvider<CsrfTokens> csrf) {
		this.admin = admin;
		this.settings = settings;
		this.views = new AdminViews(jsonMapper, settings);
		this.worker = worker;
		this.csrf = csrf;
	}

	@GetMapping("/system/config")
	public Map<String, Object> config(HttpServletRequest request) {
		CsrfTokens tokens = this.csrf.getIfAvailable();
		OjsWorker node = this.worker.getIfAvailable();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("read_only", this.settings.readOnly());
		// with Spring Security (a CSRF token source), only the admin role writes
		body.put("can_write", !this.settings.readOnly()
				&& (tokens == null || request.isUserInRole(this.settings.adminRole())));
		body.put("show_args", this.settings.showArgs());
		body.put("csrf", (tokens != null) ? tokens.token(request) : null);
		body.put("version", this.settings.version());
		body.put("node_id", (node != null) ? node.nodeId() : null);
		body.put("dashboard_path", this.settings.dashboardPath());
		body.put("api_path", AdminApiSettings.API_PATH);
		return body;
	}

	@GetMapping("/stats")
	public Map<String, Object> stats() {
		Instant now = this.admin.now();
		List<QueueSummary> queues = this.admin.queues();
		Map<String, Long> counts = new LinkedHashMap<>();
		AdminViews.COUNTED_STATES.forEach((state) -> counts.put(state, 0L));
		for (QueueSummary queue : queues) {
			queue.counts().forEach((state, n) -> counts.merge(state.value(), n, Long::sum));
			counts.merge("discarded", -queue.deadLetters(), Long::sum);
			counts.merge("dead_letter", queue.deadLetters(), Long::sum);
		}
		int minutes = AdminQueuesController.THROUGHPUT_MINUTES;
		List<StatsBucket> recent = this.admin.stats(now.minus(Duration.ofMinutes(minutes)), now.plusSeconds(1),
				24 * 60, null);
		long running = this.admin.nodes().stream().filter((node) -> !this.views.isStale(node, now)).count();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("queues", queues.size());
		body.put("workers", running);
		body.put("jobs", counts);
		body.put("throughput", AdminViews.throughput(sum(recent, now), minutes));
		body.put("uptime_seconds", ManagementFactory.getRuntimeMXBean().getUptime() / 1000);
		return body;
	}

	/** Outcome counters per period; periods without outcomes are zeros. */
	@GetMapping("/stats/history")
	public Map<String, Object> history(@RequestParam(defaultValue = "1m") String period,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until,
			@RequestParam(required = false) @Nullable String queue) {
		int minutes = switch (period) {
			case "1m" -> 1;
			case "5m" -> 5;
			case "1h" -> 60;
			default -> throw ApiException.invalidRequest("period must be 1m, 5m or 1h", Map.of("parameter", "period"));
		};
		Instant now = this.admin.now();
		Instant to = orElse(JobFilters.instant("until", until), now);
		Instant from = orElse(JobFilters.instant("since", since), to.minus(Duration.ofMinutes(minutes == 1 ? 60 : 24 * 60)));
		long seconds = minutes * 60L;
		Instant first = Instant.ofEpochSecond(from.getEpochSecond() - Math.floorMod(from.getEpochSecond(), seconds));
		if (!first.isBefore(to) || Duration.between(first, to).getSeconds() / seconds > MAX_BUCKETS) {
			throw ApiException.invalidRequest("since must be before until, at most " + MAX_BUCKETS + " periods apart");
		}
		Map<Instant, StatsBucket> found = new LinkedHashMap<>();
		String q = QueueNames.checkOptional(JobFilters.blankToNull(queue), "queue");
		this.admin.stats(first, to, minutes, q).forEach((bucket) -> found.put(bucket.start(), bucket));
		List<Map<String, Object>> data = new ArrayList<>();
		for (Instant start = first; start.isBefore(to); start = start.plusSeconds(seconds)) {
			StatsBucket bucket = found.get(start);
			data.add(AdminViews.bucket((bucket != null) ? bucket
					: new StatsBucket(start, (q != null) ? q : "*", 0, 0, 0, 0, 0)));
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("period", period);
		body.put("queue", q);
		body.put("data", data);
		return body;
	}

	@GetMapping("/stats/top-failing")
	public Map<String, Object> topFailing(@RequestParam(required = false) @Nullable String since) {
		Instant from = orElse(JobFilters.instant("since", since), this.admin.now().minus(Duration.ofHours(1)));
		List<Map<String, Object>> items = new ArrayList<>();
		for (FailingType failing : this.admin.topFailing(from, TOP_FAILING)) {
			Map<String, Object> view = new LinkedHashMap<>();
			view.put("type", failing.type());
			view.put("queue", failing.queue());
			view.put("failed", failing.failed());
			view.put("last_error_type", failing.lastErrorType());
			view.put("last_failed_at", AdminViews.time(failing.lastFailedAt()));
			items.add(view);
		}
		return Map.of("items", items);
	}

	@GetMapping("/workers")
	public Map<String, Object> workers() {
		Instant now = this.admin.now();
		List<Map<String, Object>> items = this.admin.nodes().stream().map((node) -> this.views.node(node, now)).toList();
		long stale = items.stream().filter((node) -> "stale".equals(node.get("state"))).count();
		Map<String, Object> body = AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
		body.put("summary", Map.of("total", items.size(), "running", items.size() - stale, "stale", stale));
		return body;
	}

	/** One node and the active jobs it holds (up to {@link dev.ojs.admin.AdminStore#MAX_PAGE} active jobs are looked at). */
	@GetMapping("/workers/{id}")
	public Map<String, Object> worker(@PathVariable String id) {
		Instant now = this.admin.now();
		NodeInfo node = this.admin.nodes()
			.stream()
			.filter((candidate) -> candidate.nodeId().equals(id))
			.findFirst()
			.orElseThrow(() -> ApiException.notFound("No worker node " + id));
		Map<String, Object> view = this.views.node(node, now);
		JobQuery active = JobQuery.ALL.withState(JobState.ACTIVE, null).withPage(null, AdminStore.MAX_PAGE);
		List<Job> held = this.admin.jobs(active).items().stream().filter((job) -> id.equals(job.lockedBy())).toList();
		view.put("jobs", held.stream().map(this.views::summary).toList());
		return view;
	}

	private static @Nullable StatsBucket sum(List<StatsBucket> buckets, Instant now) {
		if (buckets.isEmpty()) {
			return null;
		}
		long[] sum = new long[5];
		for (StatsBucket bucket : buckets) {
			sum[0] += bucket.completed();
			sum[1] += bucket.failed();
			sum[2] += bucket.retried();
			sum[3] += bucket.deadLettered();
			sum[4] += bucket.discarded();
		}
		return new StatsBucket(now, "*", sum[0], sum[1], sum[2], sum[3], sum[4]);
	}

	private static Instant orElse(@Nullable Instant value, Instant fallback) {
		return (value != null) ? value : fallback;
	}

}

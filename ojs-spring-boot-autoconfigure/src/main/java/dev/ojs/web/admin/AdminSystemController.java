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
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.ojs.admin.FailingType;
import dev.ojs.admin.StatsBucket;
import dev.ojs.json.WorkerNodeJson;
import dev.ojs.spring.OjsStatistics;
import dev.ojs.spring.OjsWorker;
import dev.ojs.spring.OjsWorkerNodes;
import dev.ojs.web.ApiException;

/**
 * The dashboard's bootstrap ({@code system/config}: read-only, whether this user can write, the
 * CSRF token), worker nodes (ojs-admin-api.md §9, {@link OjsWorkerNodes}) and statistics (§10,
 * {@link OjsStatistics}): totals, per-period history and the most failing job types.
 */
@RestController
@RequestMapping(AdminApiSettings.API_PATH)
public class AdminSystemController {

	private final OjsStatistics statistics;

	private final OjsWorkerNodes nodes;

	private final AdminApiSettings settings;

	private final AdminViews views;

	private final ObjectProvider<OjsWorker> worker;

	private final ObjectProvider<CsrfTokens> csrf;

	public AdminSystemController(OjsStatistics statistics, OjsWorkerNodes nodes, AdminApiSettings settings,
			JsonMapper jsonMapper, ObjectProvider<OjsWorker> worker, ObjectProvider<CsrfTokens> csrf) {
		this.statistics = statistics;
		this.nodes = nodes;
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
		OjsStatistics.Totals totals = this.statistics.totals();
		int minutes = AdminQueuesController.THROUGHPUT_MINUTES;
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("queues", totals.queues());
		body.put("workers", this.nodes.running());
		body.put("jobs", totals.jobs());
		body.put("throughput", AdminViews.throughput(this.statistics.recent(Duration.ofMinutes(minutes)), minutes));
		body.put("uptime_seconds", ManagementFactory.getRuntimeMXBean().getUptime() / 1000);
		return body;
	}

	/** Outcome counters per period; periods without outcomes are zeros. */
	@GetMapping("/stats/history")
	public Map<String, Object> history(@RequestParam(defaultValue = "1m") String period,
			@RequestParam(required = false) @Nullable String since, @RequestParam(required = false) @Nullable String until,
			@RequestParam(required = false) @Nullable String queue) {
		OjsStatistics.Period length = JobFilters.parameters(() -> OjsStatistics.Period.of(period));
		Instant from = JobFilters.instant("since", since);
		Instant to = JobFilters.instant("until", until);
		String q = JobFilters.blankToNull(queue);
		List<StatsBucket> buckets = JobFilters.parameters(() -> this.statistics.history(length, from, to, q));
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("period", period);
		body.put("queue", q);
		body.put("data", buckets.stream().map(AdminViews::bucket).toList());
		return body;
	}

	@GetMapping("/stats/top-failing")
	public Map<String, Object> topFailing(@RequestParam(required = false) @Nullable String since) {
		Instant from = orElse(JobFilters.instant("since", since), this.statistics.now().minus(Duration.ofHours(1)));
		List<Map<String, Object>> items = new ArrayList<>();
		for (FailingType failing : this.statistics.topFailing(from)) {
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
		List<OjsWorkerNodes.WorkerNode> all = this.nodes.nodes();
		List<Map<String, Object>> items = all.stream().map(WorkerNodeJson::admin).toList();
		long stale = all.stream().filter(OjsWorkerNodes.WorkerNode::stale).count();
		Map<String, Object> body = AdminViews.list(items, (long) items.size(), false, Math.max(items.size(), 1), null);
		body.put("summary", Map.of("total", items.size(), "running", items.size() - stale, "stale", stale));
		return body;
	}

	/** One node and the active jobs it holds. */
	@GetMapping("/workers/{id}")
	public Map<String, Object> worker(@PathVariable String id) {
		OjsWorkerNodes.WorkerNode node = this.nodes.node(id)
			.orElseThrow(() -> ApiException.notFound("No worker node " + id));
		Map<String, Object> view = WorkerNodeJson.admin(node);
		view.put("jobs", this.nodes.heldJobs(id).stream().map(this.views::summary).toList());
		return view;
	}

	/**
	 * §9.3, L1-WRK-002: the worker's next heartbeat answers {@code quiet}. Any worker id: an
	 * external worker need not be a node.
	 */
	@PostMapping("/workers/{id}/quiet")
	public Map<String, Object> quiet(@PathVariable String id) {
		this.nodes.quiet(id);
		return signal(id);
	}

	/** L1-WRK-003: the worker's next heartbeat answers {@code terminate}. */
	@PostMapping("/workers/{id}/terminate")
	public Map<String, Object> terminate(@PathVariable String id) {
		this.nodes.terminate(id);
		return signal(id);
	}

	/** The worker's next heartbeat answers {@code running} again. */
	@PostMapping("/workers/{id}/resume")
	public Map<String, Object> resume(@PathVariable String id) {
		this.nodes.resume(id);
		return signal(id);
	}

	private Map<String, Object> signal(String id) {
		return Map.of("worker_id", id, "state", this.nodes.signal(id).value());
	}

	private static Instant orElse(@Nullable Instant value, Instant fallback) {
		return (value != null) ? value : fallback;
	}

}

package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.client.RestTestClient;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.RateLimit;
import dev.ojs.job.TypeLimit;
import dev.ojs.worker.NodeInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The OJS Admin API over HTTP with writes allowed ({@code ojs.dashboard.read-only=false}),
 * checked against the job table: paging, filters, job detail, the bulk confirm interlock and
 * its bound, dead-letter groups, queue pause and resume, nodes and statistics after real job
 * runs (ojs-admin-api.md §6–11), and a due scheduled job read the same way on the HTTP binding.
 * Subclasses choose the database.
 */
@SpringBootTest(classes = IntegrationTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.dashboard.enabled=true", "ojs.dashboard.allow-unauthenticated-loopback=true", "ojs.dashboard.read-only=false", "ojs.dashboard.bulk-limit=2",
				"ojs.http.enabled=true", "ojs.http.allow-unauthenticated-loopback=true" })
@AutoConfigureRestTestClient
abstract class AdminApiHttpTests {

	private static final String API = "/ojs/v1/admin";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Autowired
	private RestTestClient client;

	@Autowired
	private OjsTemplate template;

	@Autowired
	private JobStore jobStore;

	@Autowired
	private OjsWorker worker;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private OjsQueues queues;

	@Autowired
	private OjsWorkerNodes nodes;

	/** Each test starts from an empty job table, once the worker is idle. */
	@BeforeEach
	void clearJobs() {
		await().atMost(TIMEOUT).until(() -> count("state IN ('available', 'active', 'retryable', 'scheduled')") == 0);
		this.jdbc.update("DELETE FROM " + table());
	}

	/** §7.1: a keyset walk by next_cursor sees every matching job once; per_page and filters apply. */
	@Test
	void pagesJobsByCursor() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(this.template.enqueue("it.ok", "page-" + i));
		}
		await().atMost(TIMEOUT).until(() -> ids.stream().allMatch((id) -> state(id) == JobState.COMPLETED));
		List<String> seen = new ArrayList<>();
		String cursor = null;
		do {
			Map<?, ?> page = get(API + "/jobs?type=it.o*&state=completed&per_page=2"
					+ ((cursor != null) ? "&cursor=" + cursor : ""));
			Map<?, ?> pagination = (Map<?, ?>) page.get("pagination");
			assertThat(pagination.get("per_page")).isEqualTo(2);
			assertThat(pagination.get("total_is_estimate")).isEqualTo(false);
			for (Object item : (List<?>) page.get("items")) {
				Map<?, ?> job = (Map<?, ?>) item;
				assertThat(job.get("type")).isEqualTo("it.ok");
				assertThat(job.get("state")).isEqualTo("completed");
				seen.add((String) job.get("id"));
			}
			cursor = (String) page.get("next_cursor");
		}
		while (cursor != null);
		assertThat(seen).doesNotHaveDuplicates().containsAll(ids);
		assertThat(seen).hasSize(count("type = 'it.ok' AND state = 'completed'"));
	}

	/** §7.2: a job's full envelope with its error history, effective policy and actions; 404 in the error body. */
	@Test
	void showsAJobWithItsErrors() {
		String id = this.template.enqueue("it.non_retryable");
		await().atMost(TIMEOUT).until(() -> state(id) == JobState.DISCARDED);
		this.client.get()
			.uri(API + "/jobs/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.id").isEqualTo(id)
			.jsonPath("$.specversion").isEqualTo("1.0")
			.jsonPath("$.args").isArray()
			.jsonPath("$.dead_letter").isEqualTo(true)
			.jsonPath("$.max_attempts").isEqualTo(5)
			.jsonPath("$.retry_policy.max_attempts").isEqualTo(5)
			.jsonPath("$.retry_policy_sources.max_attempts").isEqualTo("handler")
			.jsonPath("$.errors.length()").isEqualTo(1)
			.jsonPath("$.errors[0].attempt").isEqualTo(1)
			.jsonPath("$.errors[0].message").isEqualTo("never works")
			.jsonPath("$.actions[0]").isEqualTo("retry")
			.jsonPath("$.actions[1]").isEqualTo("delete")
			.jsonPath("$.actions.length()").isEqualTo(2);
		this.client.get()
			.uri(API + "/jobs/{id}", "0190f5f0-0000-7000-8000-00000000ffff")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.error.code").isEqualTo("not_found")
			.jsonPath("$.error.request_id").isNotEmpty();
		this.client.get()
			.uri(API + "/jobs?cursor=not-a-cursor")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.error.code").isEqualTo("invalid_request");
	}

	/**
	 * §7.1, §10.2: a filter, page or period the services refuse is a 400 naming the query
	 * parameter, with the services' message (issue 27: one rule on every edge).
	 */
	@Test
	void refusesBadFiltersNamingTheParameter() {
		Map<String, String> refusals = Map.of(API + "/jobs?state=FooBar", "state", API + "/jobs?per_page=0", "per_page",
				API + "/dead-letter?per_page=101", "per_page", API + "/jobs?order=up", "order",
				API + "/jobs?id=nope", "id", API + "/jobs?since=yesterday", "since", API + "/stats/history?period=7x",
				"period", API + "/stats/history?since=2025-01-02T00:00:00Z&until=2025-01-01T00:00:00Z", "since");
		refusals.forEach((uri, parameter) -> this.client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.error.code").isEqualTo("invalid_request")
			.jsonPath("$.error.details.parameter").isEqualTo(parameter));
		this.client.get()
			.uri(API + "/jobs?per_page=101")
			.exchange()
			.expectBody()
			.jsonPath("$.error.message").isEqualTo("per_page must be between 1 and " + OjsJobs.MAX_PAGE);
	}

	/**
	 * L2-DEL-003 on every surface: a job scheduled a second ahead reads {@code scheduled}
	 * until it is due by the store's clock, then {@code available} before any worker claims it,
	 * on the binding's GET, the Admin API's job and list, and {@link OjsTemplate#getJob}.
	 */
	@Test
	void aDueScheduledJobReadsAvailableOnEveryView() {
		// a queue no worker here polls: the job stays unclaimed once due
		String id = this.template.enqueue("it.ok",
				JobOptions.builder().queue("unpolled").delay(Duration.ofSeconds(1)).build());
		try {
			Instant due = this.jobStore.find(id).orElseThrow().scheduledAt();
			assertThat(views(id)).containsOnly("scheduled");
			assertThat(this.jobStore.now()).as("the views were read before the job was due").isBefore(due);
			await().atMost(TIMEOUT).until(() -> !this.jobStore.now().isBefore(due));
			assertThat(views(id)).containsOnly("available");
			assertThat(state(id)).as("stored state: no worker claimed it").isEqualTo(JobState.SCHEDULED);
		}
		finally {
			// ended, so the next test's clean-up need not wait for it
			this.jobStore.cancel(id);
		}
	}

	/** The job's state on the binding's GET, the Admin API's job and list, and the Java API. */
	private List<String> views(String id) {
		Map<?, ?> binding = (Map<?, ?>) get("/ojs/v1/jobs/" + id).get("job");
		List<?> listed = (List<?>) get(API + "/jobs?id=" + id).get("items");
		return List.of((String) binding.get("state"), (String) get(API + "/jobs/" + id).get("state"),
				(String) ((Map<?, ?>) listed.get(0)).get("state"),
				this.template.getJob(id).orElseThrow().state().value());
	}

	/** §8: without confirm only the count; with it at most bulk-limit jobs, reported as truncated; then the rest. */
	@Test
	void bulkRetryNeedsConfirmationAndIsBounded() {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			ids.add(this.template.enqueue("it.non_retryable"));
		}
		await().atMost(TIMEOUT).until(() -> ids.stream().allMatch((id) -> state(id) == JobState.DISCARDED));
		String errorType = this.jobStore.find(ids.get(0)).orElseThrow().lastError().type();
		Map<String, Object> filter = Map.of("state", "dead_letter", "type", "it.non_retryable", "error_type", errorType);

		Map<?, ?> preview = post(API + "/jobs/bulk/delete", Map.of("filter", filter));
		assertThat(preview.get("matched")).isEqualTo(3);
		assertThat(preview.get("confirm_required")).isEqualTo(true);
		assertThat(count("type = 'it.non_retryable' AND dead_letter = TRUE")).isEqualTo(3);

		Map<?, ?> first = post(API + "/jobs/bulk/delete", Map.of("filter", filter, "confirm", true));
		assertThat(first.get("succeeded")).isEqualTo(2);
		assertThat(first.get("limit")).isEqualTo(2);
		assertThat(first.get("truncated")).isEqualTo(true);
		assertThat(count("type = 'it.non_retryable' AND dead_letter = TRUE")).isEqualTo(1);
		Map<?, ?> second = post(API + "/jobs/bulk/delete", Map.of("filter", filter, "confirm", true));
		assertThat(second.get("succeeded")).isEqualTo(1);
		assertThat(second.get("truncated")).isEqualTo(false);
		assertThat(count("type = 'it.non_retryable' AND dead_letter = TRUE")).isZero();

		// an action needs a state it applies to
		this.client.post()
			.uri(API + "/jobs/bulk/retry")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("filter", Map.of("type", "it.ok"), "confirm", true))
			.exchange()
			.expectStatus()
			.isBadRequest();
	}

	/** §11: dead letters grouped by error type × job type × queue; retrying a group makes them run again. */
	@Test
	void retriesADeadLetterGroup() {
		List<String> ids = List.of(this.template.enqueue("it.non_retryable"), this.template.enqueue("it.non_retryable"));
		await().atMost(TIMEOUT).until(() -> ids.stream().allMatch((id) -> state(id) == JobState.DISCARDED));
		Map<?, ?> groups = get(API + "/dead-letter/groups?type=it.non_retryable");
		List<?> items = (List<?>) groups.get("items");
		assertThat(items).hasSize(1);
		Map<?, ?> group = (Map<?, ?>) items.get(0);
		assertThat(group.get("count")).isEqualTo(2);
		assertThat(group.get("queue")).isEqualTo("default");
		assertThat(group.get("sample_message")).isEqualTo("never works");
		Map<String, Object> filter = Map.of("type", "it.non_retryable", "queue", "default", "error_type",
				group.get("error_type"));

		assertThat(post(API + "/dead-letter/retry", Map.of("filter", filter)).get("matched")).isEqualTo(2);
		assertThat(count("type = 'it.non_retryable' AND dead_letter = TRUE")).isEqualTo(2);
		Map<?, ?> retried = post(API + "/dead-letter/retry", Map.of("filter", filter, "confirm", true));
		assertThat(retried.get("succeeded")).isEqualTo(2);
		// they ran again (attempt 1 of a fresh run) and dead-lettered again, history kept
		await().atMost(TIMEOUT)
			.until(() -> count("type = 'it.non_retryable' AND dead_letter = TRUE AND enqueued_at > created_at") == 2);
		assertThat(this.jobStore.find(ids.get(0)).orElseThrow().errors()).hasSize(2);

		Map<?, ?> deleted = post(API + "/dead-letter/delete", Map.of("filter", filter, "confirm", true));
		assertThat(deleted.get("succeeded")).isEqualTo(2);
		assertThat(count("type = 'it.non_retryable'")).isZero();
	}

	/**
	 * §11.2: a retried dead letter answers {@code 200} with the job back in line (attempt 0,
	 * no longer a dead letter); an id that is no dead letter is {@code 404}, and so is a
	 * second retry.
	 */
	@Test
	void retriesOneDeadLetter() {
		String id = this.template.enqueue("it.non_retryable");
		await().atMost(TIMEOUT).until(() -> state(id) == JobState.DISCARDED);
		this.queues.pause("default");
		try {
			this.client.post()
				.uri(API + "/dead-letter/{id}/retry", id)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.id").isEqualTo(id)
				.jsonPath("$.state").isEqualTo("available")
				.jsonPath("$.attempt").isEqualTo(0)
				.jsonPath("$.dead_letter").isEqualTo(false)
				.jsonPath("$.last_error.message").isEqualTo("never works");
			this.client.post()
				.uri(API + "/dead-letter/{id}/retry", id)
				.exchange()
				.expectStatus()
				.isNotFound()
				.expectBody()
				.jsonPath("$.error.code").isEqualTo("not_found");
		}
		finally {
			this.queues.resume("default");
		}
		await().atMost(TIMEOUT).until(() -> this.jobStore.find(id).orElseThrow().deadLetter());
	}

	/** §6.3, §6.4: a paused queue's jobs wait; resumed, they run. */
	@Test
	void pausesAndResumesAQueue() {
		Map<?, ?> paused = post(API + "/queues/default/pause", null);
		assertThat(paused.get("paused")).isEqualTo(true);
		assertThat(paused.get("paused_at")).isNotNull();
		String id = this.template.enqueue("it.ok", "paused");
		await().during(Duration.ofMillis(600)).atMost(TIMEOUT).until(() -> state(id) == JobState.AVAILABLE);
		Map<?, ?> queue = get(API + "/queues/default");
		assertThat(queue.get("state")).isEqualTo("paused");
		assertThat(((Map<?, ?>) queue.get("counts")).get("available")).isEqualTo(1);
		assertThat(queue.get("latency_ms")).isNotNull();
		assertThat(((Map<?, ?>) queue.get("configuration")).get("node_concurrency")).as("this node's slots").isNotNull();
		assertThat(((Map<?, ?>) queue.get("configuration")).get("concurrency")).as("no limit on all nodes").isNull();
		assertThat(post(API + "/queues/default/resume", null).get("paused")).isEqualTo(false);
		await().atMost(TIMEOUT).until(() -> state(id) == JobState.COMPLETED);
		this.client.get().uri(API + "/queues/none").exchange().expectStatus().isNotFound();
	}

	/**
	 * Issue 30: a job type's limits on all nodes ({@code concurrency}, {@code concurrency_per_key})
	 * are set, listed and removed through the Admin API; a field left out stays as it is, a bad one
	 * is 400 naming the field and changes nothing, an unknown one 422.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void configuresAJobTypesLimits() {
		try {
			assertThat((Map<String, Object>) put(API + "/limits/types/it.limited", Map.of("concurrency", 3), 200))
				.containsEntry("type", "it.limited").containsEntry("concurrency", 3)
				.containsEntry("concurrency_per_key", null);
			put(API + "/limits/types/it.limited", Map.of("concurrency_per_key", 1), 200);
			assertThat(this.jobStore.typeLimits()).containsEntry("it.limited", new TypeLimit(3, 1));
			assertThat(((List<Map<String, Object>>) get(API + "/limits").get("items")).stream()
				.filter((item) -> item.get("type").equals("it.limited"))).singleElement()
				.satisfies((item) -> assertThat(item).containsEntry("concurrency", 3)
					.containsEntry("concurrency_per_key", 1)
					.containsEntry("active", 0));
			for (Object bad : List.of(0, "3", 1.5)) {
				assertThat(put(API + "/limits/types/it.limited", Map.of("concurrency_per_key", bad), 400))
					.extracting("error").extracting("details").extracting("field").isEqualTo("concurrency_per_key");
			}
			assertThat(put(API + "/limits/types/it.limited", Map.of("concurrency", 2, "rate_limit", 3), 422)).extracting("error")
				.extracting("code").isEqualTo("unsupported");
			assertThat(put(API + "/limits/types/Bad_Type", Map.of("concurrency", 3), 400)).extracting("error")
				.extracting("details").extracting("field").isEqualTo("type");
			assertThat(this.jobStore.typeLimits()).containsEntry("it.limited", new TypeLimit(3, 1));
			Map<String, Object> remove = new HashMap<>();
			remove.put("concurrency", null);
			remove.put("concurrency_per_key", null);
			put(API + "/limits/types/it.limited", remove, 200);
			assertThat(this.jobStore.typeLimits()).doesNotContainKey("it.limited");
		}
		finally {
			this.jobStore.setTypeLimit("it.limited", TypeLimit.NONE);
		}
	}

	/** §6.6, ojs-queue-config.md §8.3: a queue's rate limit is set, shown and removed; bad ones are 400 naming the field. */
	@Test
	@SuppressWarnings("unchecked")
	void configuresAQueuesRateLimit() {
		Map<?, ?> set = put(API + "/queues/mail/config", Map.of("rate_limit", Map.of("limit", 50, "period", "PT1M")), 200);
		assertThat((Map<String, Object>) ((Map<?, ?>) set.get("configuration")).get("rate_limit"))
			.containsEntry("limit", 50).containsEntry("period", "PT1M").containsEntry("period_ms", 60_000);
		assertThat(this.queues.rateLimit("mail")).isEqualTo(new RateLimit(50, Duration.ofMinutes(1)));
		this.template.enqueue("it.ok", JobOptions.builder().queue("mail").build());
		Map<?, ?> queue = get(API + "/queues/mail");
		assertThat((Map<String, Object>) ((Map<?, ?>) queue.get("configuration")).get("rate_limit"))
			.containsEntry("limit", 50).containsEntry("period", "PT1M");
		assertThat(((List<Map<String, Object>>) get(API + "/queues").get("items")).stream()
			.filter((item) -> item.get("name").equals("mail"))
			.map((item) -> (Map<String, Object>) item.get("rate_limit"))).singleElement()
			.satisfies((limit) -> assertThat(limit).containsEntry("limit", 50).containsEntry("period_ms", 60_000));
		Map<String, Object> remove = new HashMap<>();
		remove.put("rate_limit", null);
		put(API + "/queues/mail/config", remove, 200);
		assertThat(this.queues.rateLimit("mail")).isNull();
		assertThat(put(API + "/queues/mail/config", Map.of("rate_limit", Map.of("limit", 0, "period", "PT1M")), 400))
			.extracting("error").extracting("details").extracting("field").isEqualTo("rate_limit.limit");
		assertThat(put(API + "/queues/mail/config", Map.of("retention", Map.of()), 400)).isNotNull();
		assertThat(put(API + "/queues/mail/config", Map.of("rate_limit", Map.of("max_per_second", 2), "retention", 3),
				422)).extracting("error").extracting("code").isEqualTo("unsupported");
		assertThat(this.queues.rateLimit("mail")).isNull();
		// no worker serves "mail": the next test waits for an idle table
		this.jdbc.update("DELETE FROM " + table() + " WHERE queue = 'mail'");
	}

	/**
	 * §6.6, ojs-queue-config.md §6.2: a queue's concurrency on all nodes is set next to its rate
	 * limit, shown in the detail, the list and the service, and removed; a bad one is 400 naming the
	 * field and changes nothing.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void configuresAQueuesConcurrency() {
		Map<?, ?> set = put(API + "/queues/mail/config",
				Map.of("concurrency", 4, "rate_limit", Map.of("limit", 50, "period", "PT1M")), 200);
		assertThat((Map<String, Object>) set.get("configuration")).containsEntry("concurrency", 4)
			.containsEntry("node_concurrency", null);
		assertThat(this.queues.concurrency("mail")).isEqualTo(4);
		assertThat(this.queues.rateLimit("mail")).isEqualTo(new RateLimit(50, Duration.ofMinutes(1)));
		// a field left out stays as it is
		put(API + "/queues/mail/config", Map.of("concurrency", 2), 200);
		assertThat((Map<String, Object>) get(API + "/queues/mail").get("configuration")).containsEntry("concurrency", 2)
			.extractingByKey("rate_limit")
			.isNotNull();
		assertThat(((List<Map<String, Object>>) get(API + "/queues").get("items")).stream()
			.filter((item) -> item.get("name").equals("mail"))
			.map((item) -> item.get("concurrency"))).containsExactly(2);
		for (Object bad : List.of(0, "3", 1.5)) {
			assertThat(put(API + "/queues/mail/config", Map.of("concurrency", bad, "rate_limit", Map.of("limit", 9)),
					400)).extracting("error").extracting("details").extracting("field").isEqualTo("concurrency");
		}
		assertThat(this.queues.concurrency("mail")).isEqualTo(2);
		assertThat(this.queues.rateLimit("mail")).isEqualTo(new RateLimit(50, Duration.ofMinutes(1)));
		Map<String, Object> remove = new HashMap<>();
		remove.put("concurrency", null);
		remove.put("rate_limit", null);
		assertThat((Map<String, Object>) put(API + "/queues/mail/config", remove, 200).get("configuration"))
			.containsEntry("concurrency", null)
			.containsEntry("rate_limit", null);
		assertThat(this.queues.concurrencies()).doesNotContainKey("mail");
	}

	/** §9: this node appears running from its heartbeat; a node silent for three heartbeats is stale. */
	@Test
	void listsNodesFromHeartbeats() {
		await().atMost(TIMEOUT).until(() -> nodeState(this.worker.nodeId()) != null);
		assertThat(nodeState(this.worker.nodeId())).isEqualTo("running");
		Instant old = Instant.now().minus(Duration.ofMinutes(5));
		((JdbcJobStore) this.jobStore).nodeHeartbeat(
				new NodeInfo("gone-node", null, "elsewhere", List.of("default"), 1, 0, old, old, null, NodeInfo.IN_PROCESS));
		assertThat(nodeState("gone-node")).isEqualTo("stale");
		Map<?, ?> summary = (Map<?, ?>) get(API + "/workers").get("summary");
		assertThat(((Number) summary.get("stale")).intValue()).isGreaterThanOrEqualTo(1);
		this.client.get()
			.uri(API + "/workers/{id}", this.worker.nodeId())
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.kind").isEqualTo("in-process")
			.jsonPath("$.jobs").isArray();
		((JdbcJobStore) this.jobStore).nodeStopped("gone-node");
	}

	/**
	 * §9.3, L1-WRK-002, L1-WRK-003: quiet and terminate are set per worker id, also one that is
	 * no node (an external worker), and kept by the worker nodes service for the heartbeat.
	 */
	@Test
	void signalsWorkers() {
		assertThat(post(API + "/workers/ext-worker-1/quiet", Map.of()).get("state")).isEqualTo("quiet");
		assertThat(this.nodes.signal("ext-worker-1")).isEqualTo(OjsWorkerNodes.Signal.QUIET);
		assertThat(post(API + "/workers/ext-worker-1/terminate", Map.of()).get("state")).isEqualTo("terminate");
		assertThat(this.nodes.signal("ext-worker-1")).isEqualTo(OjsWorkerNodes.Signal.TERMINATE);
		assertThat(post(API + "/workers/ext-worker-1/resume", Map.of()).get("state")).isEqualTo("running");
		assertThat(this.nodes.signal("ext-worker-1")).isEqualTo(OjsWorkerNodes.Signal.RUNNING);
	}

	/** §10: per-minute counters after real runs: completed and dead-lettered jobs show up in the history. */
	@Test
	void countsRunsInStatistics() {
		Map<?, ?> before = totals();
		List<String> ids = List.of(this.template.enqueue("it.ok", "s1"), this.template.enqueue("it.ok", "s2"),
				this.template.enqueue("it.non_retryable"));
		await().atMost(TIMEOUT).until(() -> ids.stream().allMatch((id) -> state(id).isTerminal()));
		Map<?, ?> after = totals();
		assertThat(number(after, "completed") - number(before, "completed")).isEqualTo(2);
		assertThat(number(after, "dead_lettered") - number(before, "dead_lettered")).isEqualTo(1);
		assertThat(number(after, "failed") - number(before, "failed")).isEqualTo(1);
		Map<?, ?> stats = get(API + "/stats");
		assertThat(((Map<?, ?>) stats.get("jobs")).get("completed")).isNotNull();
		List<?> top = (List<?>) get(API + "/stats/top-failing").get("items");
		List<String> types = top.stream().map((item) -> (String) ((Map<?, ?>) item).get("type")).toList();
		assertThat(types).contains("it.non_retryable");
	}

	/** The bootstrap tells the dashboard how to behave. */
	@Test
	void bootstrapsTheDashboard() {
		this.client.get()
			.uri(API + "/system/config")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.read_only").isEqualTo(false)
			.jsonPath("$.can_write").isEqualTo(true)
			.jsonPath("$.show_args").isEqualTo(true)
			.jsonPath("$.csrf").isEmpty()
			.jsonPath("$.dashboard_path").isEqualTo("/ojs")
			.jsonPath("$.api_path").isEqualTo(API)
			.jsonPath("$.node_id").isEqualTo(this.worker.nodeId());
	}

	/** Sums of the per-minute history of the last hour over every queue. */
	private Map<?, ?> totals() {
		long completed = 0;
		long failed = 0;
		long deadLettered = 0;
		for (Object point : (List<?>) get(API + "/stats/history?period=1m").get("data")) {
			Map<?, ?> data = (Map<?, ?>) point;
			completed += ((Number) data.get("completed")).longValue();
			failed += ((Number) data.get("failed")).longValue();
			deadLettered += ((Number) data.get("dead_lettered")).longValue();
		}
		return Map.of("completed", completed, "failed", failed, "dead_lettered", deadLettered);
	}

	private static long number(Map<?, ?> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

	private String nodeState(String id) {
		for (Object item : (List<?>) get(API + "/workers").get("items")) {
			Map<?, ?> node = (Map<?, ?>) item;
			if (id.equals(node.get("id"))) {
				return (String) node.get("state");
			}
		}
		return null;
	}

	private Map<?, ?> get(String uri) {
		return this.client.get().uri(uri).exchange().expectStatus().isOk().expectBody(Map.class).returnResult()
			.getResponseBody();
	}

	private Map<?, ?> post(String uri, Map<String, Object> body) {
		RestTestClient.RequestBodySpec request = this.client.post().uri(uri);
		if (body != null) {
			request.contentType(MediaType.APPLICATION_JSON).body(body);
		}
		return request.exchange().expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
	}

	private Map<?, ?> put(String uri, Map<String, Object> body, int status) {
		return this.client.put()
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
	}

	private JobState state(String id) {
		return this.jobStore.find(id).orElseThrow().state();
	}

	private int count(String where) {
		Integer n = this.jdbc.queryForObject("SELECT count(*) FROM " + table() + " WHERE " + where, Integer.class);
		return (n != null) ? n : 0;
	}

	private String table() {
		return ((JdbcJobStore) this.jobStore).settings().tableName();
	}

}

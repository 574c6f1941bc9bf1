package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.worker.RetentionSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workflows in the Admin API: the list keyset paged and filtered by state and type (spec
 * README decision 13), one workflow, its cancel (decision 32) behind the write guard; a bulk
 * cancel of workflow jobs advancing their workflows as a single cancel does (decision 31); and
 * the pruning of ended workflows with their jobs. Subclasses choose the database. The jobs go to
 * queues no worker of the application serves.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.dashboard.enabled=true", "ojs.dashboard.read-only=false" })
abstract class AdminWorkflowsHttpTests {

	private static final String API = "/ojs/v1/admin/workflows";

	@LocalServerPort
	int port;

	@Autowired
	JdbcJobStore store;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	/** Decision 13: a walk by next_cursor sees each workflow once, newest first; filters apply. */
	@Test
	void listPagesByCursorAndFilters() {
		List<String> created = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			created.add(create("group", "wf-admin-list"));
		}
		String chain = create("chain", "wf-admin-list");
		List<String> seen = new ArrayList<>();
		String cursor = null;
		do {
			OjsClient.Response page = this.client.get(API + "?type=group&state=running&per_page=2"
					+ ((cursor != null) ? "&cursor=" + cursor : ""));
			assertThat(page.status()).as(page.text()).isEqualTo(200);
			assertThat(page.body().path("items").size()).isLessThanOrEqualTo(2);
			assertThat(page.body().path("pagination").path("total").longValue()).isGreaterThanOrEqualTo(3);
			for (JsonNode item : page.body().path("items")) {
				assertThat(item.path("type").stringValue()).isEqualTo("group");
				assertThat(item.path("state").stringValue()).isEqualTo("running");
				assertThat(item.has("jobs_total")).isTrue();
				seen.add(item.path("id").stringValue());
			}
			cursor = page.body().path("next_cursor").isNull() ? null : page.body().path("next_cursor").stringValue();
		}
		while (cursor != null);
		assertThat(seen).doesNotHaveDuplicates().doesNotContain(chain);
		assertThat(seen).containsSubsequence(created.get(2), created.get(1), created.get(0));
		JsonNode one = this.client.get(API + "/" + chain).body();
		assertThat(one.path("type").stringValue()).isEqualTo("chain");
		assertThat(one.path("steps").size()).isEqualTo(2);
		assertThat(this.client.get(API + "/0190a5d0-ac96-774b-bcce-b302099a8057").status()).isEqualTo(404);
		OjsClient.Response refused = this.client.get(API + "?state=sleeping");
		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.body().path("error").path("details").path("parameter").stringValue()).isEqualTo("state");
		assertThat(this.client.get(API + "?cursor=nope").status()).isEqualTo(400);
	}

	/** Decision 32: the cancel of a running workflow cancels its jobs not started; an ended one is 409. */
	@Test
	void cancelOfARunningWorkflow() {
		String id = create("chain", "wf-admin-cancel");
		OjsClient.Response cancelled = this.client.post(API + "/" + id + "/cancel", Map.of());
		assertThat(cancelled.status()).as(cancelled.text()).isEqualTo(200);
		assertThat(cancelled.body().path("state").stringValue()).isEqualTo("cancelled");
		assertThat(cancelled.body().path("steps").get(1).path("state").stringValue()).isEqualTo("cancelled");
		OjsClient.Response again = this.client.post(API + "/" + id + "/cancel", Map.of());
		assertThat(again.status()).isEqualTo(409);
		assertThat(again.errorCode()).isEqualTo("conflict");
		assertThat(this.client.post(API + "/0190a5d0-ac96-774b-bcce-b302099a8057/cancel", Map.of()).status())
			.isEqualTo(404);
	}

	/** Decision 31: a bulk cancel of a chain's step fails the chain; of a batch's jobs, fires its callback once. */
	@Test
	void bulkCancelAdvancesWorkflows() {
		String chain = create("chain", "wf-admin-bulk-chain");
		OjsClient.Response bulk = this.client.post("/ojs/v1/admin/jobs/bulk/cancel",
				Map.of("filter", Map.of("queue", "wf-admin-bulk-chain", "state", "available"), "confirm", true));
		assertThat(bulk.status()).as(bulk.text()).isEqualTo(200);
		JsonNode failed = this.client.get(API + "/" + chain).body();
		assertThat(failed.path("state").stringValue()).isEqualTo("failed");
		assertThat(failed.path("steps_failed").intValue()).isEqualTo(1);
		assertThat(failed.path("steps").get(1).path("state").stringValue()).isEqualTo("cancelled");
		OjsClient.Response created = this.client.post("/ojs/v1/workflows", Map.of("type", "batch", "jobs",
				List.of(job("wf-admin-bulk-batch"), job("wf-admin-bulk-batch")), "callbacks",
				Map.of("on_complete", job("wf-admin-bulk-callback"))));
		String batch = created.body().path("workflow").path("id").stringValue();
		assertThat(this.client.post("/ojs/v1/admin/jobs/bulk/cancel",
				Map.of("filter", Map.of("queue", "wf-admin-bulk-batch", "state", "available"), "confirm", true))
			.body().path("succeeded").intValue()).isEqualTo(2);
		JsonNode running = this.client.get(API + "/" + batch).body();
		assertThat(running.path("jobs_failed").intValue()).isEqualTo(2);
		assertThat(running.path("callbacks").path("on_complete").path("job_state").stringValue()).isEqualTo("available");
	}

	/** Ended workflows go once the pruner deleted their jobs; running ones stay. */
	@Test
	void prunesEndedWorkflowsWithTheirJobs() {
		String ended = create("group", "wf-admin-prune");
		String jobId = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("wf-admin-prune")))
			.body().path("jobs").get(0).path("id").stringValue();
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", jobId)).status()).isEqualTo(200);
		String running = create("chain", "wf-admin-prune-running");
		assertThat(this.client.get(API + "/" + ended).body().path("state").stringValue()).isEqualTo("completed");
		this.store.prune(new RetentionSettings(Duration.ZERO, Duration.ofDays(1), Duration.ofDays(1), 1000,
				Duration.ofMinutes(1)), Duration.ofSeconds(30));
		assertThat(this.client.get(API + "/" + ended).status()).isEqualTo(404);
		assertThat(this.client.get(API + "/" + running).body().path("state").stringValue()).isEqualTo("running");
	}

	/** ojs-events.md §3.5: the workflow events reach the event stream, with their data. */
	@Test
	void workflowEventsReachTheEventStream() {
		String done = create("group", "wf-admin-events");
		String jobId = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("wf-admin-events")))
			.body().path("jobs").get(0).path("id").stringValue();
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", jobId)).status()).isEqualTo(200);
		OjsClient.Response created = this.client.post("/ojs/v1/workflows", Map.of("type", "chain", "steps",
				List.of(job("wf-admin-events-failing"), job("wf-admin-events-failing")), "options",
				Map.of("retry", Map.of("max_attempts", 1))));
		String failed = created.body().path("workflow").path("id").stringValue();
		String failedJob = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("wf-admin-events-failing")))
			.body().path("jobs").get(0).path("id").stringValue();
		assertThat(this.client.post("/ojs/v1/workers/nack", Map.of("job_id", failedJob, "error",
				Map.of("code", "handler_error", "message", "broken"))).status()).isEqualTo(200);
		JsonNode events = this.client.get("/ojs/v1/events?types=workflow.started,workflow.step_completed,"
				+ "workflow.completed,workflow.failed&limit=1000").body().path("events");
		List<JsonNode> ofDone = new ArrayList<>();
		List<JsonNode> ofFailed = new ArrayList<>();
		for (JsonNode event : events) {
			String subject = event.path("subject").stringValue();
			(subject.equals(done) ? ofDone : subject.equals(failed) ? ofFailed : new ArrayList<JsonNode>()).add(event);
		}
		assertThat(ofDone).extracting((event) -> event.path("type").stringValue())
			.containsExactly("workflow.started", "workflow.step_completed", "workflow.completed");
		assertThat(ofDone.get(1).path("data").path("step_id").stringValue()).isEqualTo(jobId);
		assertThat(ofDone.get(1).path("data").path("steps_remaining").intValue()).isZero();
		assertThat(ofDone.get(2).path("data").path("total_steps").intValue()).isEqualTo(1);
		assertThat(ofFailed).extracting((event) -> event.path("type").stringValue())
			.containsExactly("workflow.started", "workflow.failed");
		JsonNode failure = ofFailed.get(1).path("data");
		assertThat(failure.path("failed_step_id").stringValue()).isEqualTo(failedJob);
		assertThat(failure.path("failed_step_type").stringValue()).isEqualTo("wf.admin");
		assertThat(failure.path("error").path("message").stringValue()).isEqualTo("broken");
	}

	/** A group of one job, or a chain of two, on this queue; returns its id. */
	private String create(String type, String queue) {
		List<Map<String, Object>> jobs = type.equals("chain") ? List.of(job(queue), job(queue)) : List.of(job(queue));
		OjsClient.Response created = this.client.post("/ojs/v1/workflows",
				Map.of("type", type, type.equals("chain") ? "steps" : "jobs", jobs));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.body().path("workflow").path("id").stringValue();
	}

	private static Map<String, Object> job(String queue) {
		return Map.of("type", "wf.admin", "args", List.of(), "options", Map.of("queue", queue));
	}

}

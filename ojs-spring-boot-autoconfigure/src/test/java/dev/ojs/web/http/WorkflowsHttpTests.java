package dev.ojs.web.http;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.ojs.spring.OjsWorkflows;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workflows over HTTP beyond the official level 3 cases ({@code ConformanceSuiteTests} runs
 * those): the refusals of decision 25, the view of decision 27 and the conflict of decision
 * 32. Subclasses choose the database. The jobs go to queues no worker of the application
 * serves, so only this test's fetches claim them.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN })
abstract class WorkflowsHttpTests {

	@LocalServerPort
	int port;

	OjsClient client;

	@BeforeEach
	void client() {
		this.client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
	}

	/** Decision 25: one level of nesting, a known type; each refusal names its field. */
	@Test
	void refusesNestedWorkflowsAndUnknownTypes() {
		Map<String, Object> job = Map.of("type", "wf.job", "args", List.of());
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "chain", "steps",
				List.of(Map.of("type", "group", "args", List.of(), "jobs", List.of(job))))), "steps[0].jobs");
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "dag", "jobs", List.of(job))), "type");
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "group", "jobs", List.of())), "jobs");
		// decision 18: as many as one batch enqueue (the Java API takes more)
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "batch", "jobs",
				Collections.nCopies(OjsWorkflows.MAX_STEPS + 1, job))), "jobs");
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "group", "jobs",
				List.of(job, Map.of("type", "wf.job", "args", "not-an-array")))), "jobs[1].args");
		assertRefused(this.client.post("/ojs/v1/workflows", Map.of("type", "batch", "jobs", List.of(job),
				"callbacks", Map.of("on_done", job))), "callbacks.on_done");
	}

	/** Decisions 25, 27: defaults under each step's options; waiting steps, counters, the error of a failed step. */
	@Test
	void viewShowsStepsCountersAndTheFailedStep() {
		OjsClient.Response created = this.client.post("/ojs/v1/workflows", Map.of("type", "chain", "name", "view",
				"steps", List.of(Map.of("type", "wf.first", "args", List.of(1)), Map.of("type", "wf.second", "args",
						List.of(2))),
				"options", Map.of("queue", "wf-http-view", "retry", Map.of("max_attempts", 1))));
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		JsonNode workflow = created.body().path("workflow");
		String id = workflow.path("id").stringValue();
		assertThat(created.header("Location")).endsWith("/ojs/v1/workflows/" + id);
		assertThat(workflow.path("steps").get(0).path("state").stringValue()).isEqualTo("pending");
		assertThat(workflow.path("steps").get(1).path("state").stringValue()).isEqualTo("waiting");
		assertThat(workflow.path("steps").get(1).path("job_state").stringValue()).isEqualTo("pending");
		assertThat(workflow.path("metadata").path("job_count").intValue()).isEqualTo(2);
		JsonNode fetched = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("wf-http-view")))
			.body().path("jobs").get(0);
		assertThat(fetched.path("workflow_id").stringValue()).isEqualTo(id);
		assertThat(this.client.post("/ojs/v1/workers/nack", Map.of("job_id", fetched.path("id").stringValue(), "error",
				Map.of("code", "handler_error", "message", "broken"))).status()).isEqualTo(200);
		JsonNode failed = this.client.get("/ojs/v1/workflows/" + id).body().path("workflow");
		assertThat(failed.path("state").stringValue()).isEqualTo("failed");
		assertThat(failed.path("steps_failed").intValue()).isEqualTo(1);
		assertThat(failed.path("steps").get(1).path("state").stringValue()).isEqualTo("cancelled");
		assertThat(failed.path("error").path("failed_step_index").intValue()).isZero();
		assertThat(failed.path("error").path("failed_job_ids").get(0).stringValue())
			.isEqualTo(fetched.path("id").stringValue());
		assertThat(failed.path("error").path("errors").get(0).path("message").stringValue()).isEqualTo("broken");
	}

	/** Decision 32: an ended workflow is 409 conflict; an unknown one 404. */
	@Test
	void cancelOfAnEndedWorkflowIsAConflict() {
		OjsClient.Response created = this.client.post("/ojs/v1/workflows", Map.of("type", "group", "jobs",
				List.of(Map.of("type", "wf.only", "args", List.of(), "options", Map.of("queue", "wf-http-ended")))));
		String id = created.body().path("workflow").path("id").stringValue();
		String jobId = this.client.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("wf-http-ended")))
			.body().path("jobs").get(0).path("id").stringValue();
		assertThat(this.client.post("/ojs/v1/workers/ack", Map.of("job_id", jobId)).status()).isEqualTo(200);
		OjsClient.Response conflict = this.client.delete("/ojs/v1/workflows/" + id);
		assertThat(conflict.status()).isEqualTo(409);
		assertThat(conflict.errorCode()).isEqualTo("conflict");
		assertThat(this.client.get("/ojs/v1/workflows/" + id).body().path("workflow").path("state").stringValue())
			.isEqualTo("completed");
		assertThat(this.client.get("/ojs/v1/workflows/0190a5d0-ac96-774b-bcce-b302099a8057").status()).isEqualTo(404);
		assertThat(this.client.delete("/ojs/v1/workflows/not-an-id").status()).isEqualTo(404);
	}

	private static void assertRefused(OjsClient.Response response, String field) {
		assertThat(response.status()).as(response.text()).isEqualTo(400);
		assertThat(response.errorCode()).isEqualTo("invalid_request");
		assertThat(response.body().path("error").path("details").path("field").stringValue()).isEqualTo(field);
	}

}

package dev.ojs.web.http;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end with a worker in another process that knows nothing but HTTP
 * ({@code ojs_worker.py}, Python's standard library only): it fetches, heartbeats, nacks
 * and acks jobs this application enqueued with {@link OjsTemplate}, and enqueues jobs that
 * an {@code @OjsJob} handler here runs. Subclasses choose the database.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN })
abstract class ExternalWorkerTests {

	static final int JOBS = 10;

	static final int FROM_PYTHON = 5;

	@LocalServerPort
	int port;

	@Autowired
	OjsTemplate template;

	@Autowired
	JobStore store;

	@Autowired
	HttpBindingTestApplication.JavaJobs javaJobs;

	@Test
	void pythonWorkerAndProducer() throws Exception {
		List<String> ids = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			ids.add(this.template.enqueue("py.job", List.of(i), JobOptions.builder().queue("python").build()));
		}
		File script = new ClassPathResource("dev/ojs/web/http/ojs_worker.py").getFile();
		Path out = Files.createTempFile("ojs-worker", ".out");
		Path err = Files.createTempFile("ojs-worker", ".err");
		Process process = new ProcessBuilder("python3", script.getAbsolutePath(), "http://127.0.0.1:" + this.port,
				HttpBindingTestApplication.TOKEN, "python", Integer.toString(JOBS), HttpBindingTestApplication.JAVA_TYPE,
				Integer.toString(FROM_PYTHON))
			.redirectOutput(out.toFile())
			.redirectError(err.toFile())
			.start();
		try {
			assertThat(process.waitFor(Duration.ofSeconds(90).toSeconds(), TimeUnit.SECONDS)).isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		assertThat(process.exitValue()).as(Files.readString(err)).isZero();
		JsonNode report = OjsClient.JSON.readTree(Files.readString(out));
		assertThat(report.path("acked")).hasSize(JOBS);
		assertThat(report.path("nacked")).hasSize(JOBS / 2);
		assertThat(report.path("heartbeats").intValue()).isEqualTo(JOBS + JOBS / 2);
		for (int i = 0; i < JOBS; i++) {
			Job job = this.store.find(ids.get(i)).orElseThrow();
			assertThat(job.state()).isEqualTo(JobState.COMPLETED);
			if (i % 2 == 1) {
				// the nack went through the job's retry policy: one error, a second attempt
				assertThat(job.attempt()).isEqualTo(2);
				ErrorEntry error = job.errors().get(0);
				assertThat(error.type()).isEqualTo("py.error");
				assertThat(error.attempt()).isEqualTo(1);
				assertThat(error.details()).containsEntry("arg", i);
			}
			else {
				assertThat(job.attempt()).isEqualTo(1);
				assertThat(job.errors()).isEmpty();
			}
		}
		List<String> produced = new ArrayList<>();
		report.path("produced").forEach((id) -> produced.add(id.stringValue()));
		assertThat(produced).hasSize(FROM_PYTHON);
		assertThat(this.javaJobs.ran).containsAll(produced);
		assertThat(this.javaJobs.args).contains("from-python-0", "from-python-4");
	}

	/**
	 * FETCH (§10.1) of first attempts and retried jobs at once: each job comes with its own
	 * history ({@code errors}, and its newest as {@code error}), none for a first attempt,
	 * though the store reads the histories of one claim together.
	 */
	@Test
	void fetchAnswersEachJobWithItsOwnHistory() {
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		Map<String, Object> options = Map.of("queue", "histories", "retry",
				Map.of("max_attempts", 3, "initial_interval", "PT0.05S", "jitter", false));
		List<String> retried = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			retried.add(enqueue(client, options));
		}
		assertThat(fetchHistories(client, 2, "h1")).hasSize(2);
		for (String id : retried) {
			assertThat(client.post("/ojs/v1/workers/nack", Map.of("job_id", id, "worker_id", "h1", "error",
					Map.of("type", "failed." + retried.indexOf(id), "message", "no"))).status()).isEqualTo(200);
		}
		List<String> fresh = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			fresh.add(enqueue(client, options));
		}
		// the retries are due once their backoff (50 ms) has passed
		await().atMost(Duration.ofSeconds(5)).until(() -> retried.stream()
			.allMatch((id) -> !this.store.find(id).orElseThrow().scheduledAt().isAfter(java.time.Instant.now())));

		JsonNode fetched = fetchHistories(client, 10, "h2");

		assertThat(fetched).hasSize(5);
		for (JsonNode job : fetched) {
			String id = job.path("id").stringValue();
			if (fresh.contains(id)) {
				assertThat(job.path("attempt").intValue()).isEqualTo(1);
				assertThat(job.path("errors").isArray()).isTrue();
				assertThat(job.path("errors")).as(id).isEmpty();
				assertThat(job.has("error")).as(id).isFalse();
			}
			else {
				String type = "failed." + retried.indexOf(id);
				assertThat(job.path("attempt").intValue()).isEqualTo(2);
				assertThat(job.path("errors")).as(id).hasSize(1);
				assertThat(job.path("errors").get(0).path("type").stringValue()).isEqualTo(type);
				assertThat(job.path("errors").get(0).path("attempt").intValue()).isEqualTo(1);
				assertThat(job.path("error").path("type").stringValue()).isEqualTo(type);
			}
		}
	}

	private static String enqueue(OjsClient client, Map<String, Object> options) {
		return client.post("/ojs/v1/jobs", Map.of("type", "history.job", "args", List.of(), "options", options))
			.body()
			.path("job")
			.path("id")
			.stringValue();
	}

	private static JsonNode fetchHistories(OjsClient client, int count, String workerId) {
		return client
			.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("histories"), "count", count, "worker_id", workerId))
			.body()
			.path("jobs");
	}

	/**
	 * Extension x-batch-ack of ACK (§10.2): one request acks many jobs in one transaction, each
	 * answered as the single ack would be (L0-LC-004; 409 for a cancelled job or another
	 * worker's, 404 for none), its result stored (decision 28); the manifest lists it.
	 */
	@Test
	void batchAckAnswersEachJobAsTheSingleAckWould() {
		OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
		for (int i = 0; i < 5; i++) {
			this.template.enqueue("batch.job", List.of(i), JobOptions.builder().queue("batch-ack").build());
		}
		JsonNode fetched = client
			.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("batch-ack"), "count", 4, "worker_id", "b1"))
			.body()
			.path("jobs");
		assertThat(fetched).hasSize(4);
		String other = client
			.post("/ojs/v1/workers/fetch", Map.of("queues", List.of("batch-ack"), "count", 1, "worker_id", "b2"))
			.body()
			.path("jobs")
			.get(0)
			.path("id")
			.stringValue();
		List<String> ids = new ArrayList<>();
		fetched.forEach((job) -> ids.add(job.path("id").stringValue()));
		assertThat(this.template.cancel(ids.get(3))).isTrue();

		OjsClient.Response response = client.post("/ojs/v1/workers/ack", Map.of("worker_id", "b1", "acks",
				List.of(Map.of("job_id", ids.get(0), "result", Map.of("n", 0)), Map.of("job_id", ids.get(1)),
						Map.of("job_id", ids.get(1)), Map.of("job_id", ids.get(2)), Map.of("job_id", ids.get(3)),
						Map.of("job_id", other), Map.of("job_id", "01a1e7a0-0000-7000-8000-000000000000"))));

		assertThat(response.status()).as(response.text()).isEqualTo(200);
		JsonNode acks = response.body().path("acks");
		assertThat(acks).hasSize(6);
		for (int i = 0; i < 3; i++) {
			assertThat(acks.get(i).path("job_id").stringValue()).isEqualTo(ids.get(i));
			assertThat(acks.get(i).path("acknowledged").booleanValue()).isTrue();
			assertThat(acks.get(i).path("state").stringValue()).isEqualTo("completed");
			assertThat(acks.get(i).path("completed_at").isString()).isTrue();
			assertThat(this.store.find(ids.get(i)).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
		}
		assertThat(acks.get(3).path("status").intValue()).isEqualTo(409);
		assertThat(acks.get(3).path("error").path("details").path("current_state").stringValue()).isEqualTo("cancelled");
		assertThat(acks.get(4).path("status").intValue()).as("held by b2").isEqualTo(409);
		assertThat(acks.get(4).path("acknowledged").booleanValue()).isFalse();
		assertThat(acks.get(5).path("status").intValue()).isEqualTo(404);
		assertThat(acks.get(5).path("error").path("code").stringValue()).isEqualTo("not_found");
		assertThat(this.store.find(other).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
		assertThat(client.get("/ojs/v1/jobs/" + ids.get(0)).body().path("job").path("result").path("n").intValue())
			.isZero();
		assertThat(client.post("/ojs/v1/workers/ack", Map.of("acks", List.of())).status()).isEqualTo(400);
		assertThat(client.get(OjsHttp.MANIFEST_PATH).body().path("extensions").toString()).contains("x-batch-ack");
	}

}

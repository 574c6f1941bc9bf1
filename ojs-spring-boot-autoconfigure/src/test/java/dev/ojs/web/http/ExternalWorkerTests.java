package dev.ojs.web.http;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

}

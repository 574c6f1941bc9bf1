package dev.ojs.web.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.spring.JobOptions;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Throughput of no-op jobs on PostgreSQL: run by the in-process worker, and by HTTP workers
 * that fetch in batches of {@value #FETCH} and ack each job (the binding acks one job per
 * request), reporting jobs/s and the overhead per job. Asserts only that every job ran
 * once; the figures go to the log.
 */
@SpringBootTest(classes = HttpBindingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "ojs.http.enabled=true", "ojs.http.token=" + HttpBindingTestApplication.TOKEN,
				"ojs.worker.queues.noop=16" })
class PostgresHttpThroughputTests {

	static final int JOBS = 3000;

	static final int FETCH = 100;

	static final int HTTP_WORKERS = 4;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.POSTGRESQL);
	}

	@LocalServerPort
	int port;

	@Autowired
	OjsTemplate template;

	@Autowired
	HttpBindingTestApplication.NoopJobs noopJobs;

	@Test
	void inProcessAgainstHttpFetchAndAck() throws Exception {
		long started = System.nanoTime();
		this.template.enqueueAll(HttpBindingTestApplication.NOOP_TYPE, Collections.nCopies(JOBS, List.of()),
				JobOptions.none());
		await().atMost(Duration.ofMinutes(2)).until(() -> this.noopJobs.ran.get() >= JOBS);
		double inProcess = JOBS / seconds(started);
		this.template.enqueueAll("http.remote_noop", Collections.nCopies(JOBS, List.of()),
				JobOptions.builder().queue("remote-noop").build());
		AtomicInteger acked = new AtomicInteger();
		ExecutorService workers = Executors.newFixedThreadPool(HTTP_WORKERS);
		started = System.nanoTime();
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < HTTP_WORKERS; w++) {
				String workerId = "bench-" + w;
				futures.add(workers.submit(() -> {
					OjsClient client = new OjsClient(this.port, HttpBindingTestApplication.TOKEN);
					while (acked.get() < JOBS) {
						JsonNode jobs = client.post("/ojs/v1/workers/fetch",
								Map.of("queues", List.of("remote-noop"), "count", FETCH, "worker_id", workerId))
							.body()
							.path("jobs");
						if (jobs.isEmpty()) {
							break;
						}
						for (JsonNode job : jobs) {
							assertThat(client.post("/ojs/v1/workers/ack",
									Map.of("job_id", job.path("id").stringValue(), "worker_id", workerId)).status())
								.isEqualTo(200);
							acked.incrementAndGet();
						}
					}
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			workers.shutdownNow();
		}
		double http = JOBS / seconds(started);
		assertThat(acked.get()).isEqualTo(JOBS);
		assertThat(this.noopJobs.ran.get()).isEqualTo(JOBS);
		System.out.printf("OJS throughput, %d no-op jobs on PostgreSQL: in-process %.0f jobs/s, HTTP (%d workers,"
				+ " fetch %d, ack each) %.0f jobs/s, overhead %.3f ms per job%n", JOBS, inProcess, HTTP_WORKERS, FETCH,
				http, 1000 / http - 1000 / inProcess);
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

}

package dev.ojs.bench.scenario;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.web.server.context.WebServerApplicationContext;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;

/**
 * HTTP binding: one node drains no-op jobs in process, then {@code --http-workers} workers in
 * the benchmark process drain as many jobs over the OJS HTTP binding on the same node (batch
 * fetch of {@value #FETCH}, one ack request per job, since the binding has no batch ack; one
 * HTTP/1.1 client whose connections are kept alive). Reports both rates, the HTTP rate as a
 * fraction of the in-process one, and the overhead per job of the HTTP round trips. Jobs:
 * {@code --drain-jobs}, at most {@value #MAX_JOBS}.
 */
final class HttpScenario implements Scenario {

	static final int FETCH = 100;

	static final int MAX_JOBS = 20_000;

	/** A type no handler of the node takes, so only HTTP workers run it. */
	static final String REMOTE_TYPE = "bench.remote_noop";

	private static final String TOKEN = "bench-token";

	private static final JsonMapper JSON = new JsonMapper();

	@Override
	public String name() {
		return "http";
	}

	@Override
	public ScenarioResult run(BenchEnvironment environment) throws Exception {
		BenchmarkOptions options = environment.options();
		int jobs = Math.min(options.drainJobs(), MAX_JOBS);
		BenchEnvironment.Node node = environment.start(environment.newPrefix(), true,
				Map.of("ojs.http.enabled", true, "ojs.http.token", TOKEN, "server.port", 0));
		int port = ((WebServerApplicationContext) node.context()).getWebServer().getPort();
		// in process
		long start = System.nanoTime();
		node.template().enqueueAll(BenchJobs.NOOP, Collections.nCopies(jobs, List.of(LatencyRecorder.nowMicros())),
				JobOptions.none());
		node.probe().await(node.probe()::completed, jobs, options.timeout(), "completions");
		double inProcess = jobs / ((System.nanoTime() - start) / 1e9);
		// over HTTP
		node.template().enqueueAll(REMOTE_TYPE, Collections.nCopies(jobs, List.of()),
				JobOptions.builder().queue("remote").build());
		// HTTP/1.1 without an upgrade attempt; the client keeps its connections alive between requests
		HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		int httpWorkers = options.httpWorkers();
		AtomicLong acked = new AtomicLong();
		AtomicLong fetches = new AtomicLong();
		ExecutorService workers = Executors.newFixedThreadPool(httpWorkers);
		start = System.nanoTime();
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < httpWorkers; w++) {
				String workerId = "bench-" + w;
				futures.add(workers.submit(() -> {
					while (acked.get() < jobs) {
						JsonNode fetched = post(http, port, "/ojs/v1/workers/fetch",
								Map.of("queues", List.of("remote"), "count", FETCH, "worker_id", workerId)).path("jobs");
						fetches.incrementAndGet();
						if (fetched.isEmpty()) {
							return null;
						}
						for (JsonNode job : fetched) {
							post(http, port, "/ojs/v1/workers/ack",
									Map.of("job_id", job.path("id").stringValue(), "worker_id", workerId));
							acked.incrementAndGet();
						}
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			workers.shutdownNow();
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		environment.stop(node);
		if (acked.get() != jobs) {
			throw new IllegalStateException("HTTP workers acked " + acked.get() + " of " + jobs + " jobs");
		}
		double overHttp = jobs / seconds;
		double overheadMs = 1000 / overHttp - 1000 / inProcess;
		double fraction = overHttp / inProcess;
		new ResultTable(name() + ": no-op jobs in process, then over the HTTP binding (" + httpWorkers
				+ " workers, fetch " + FETCH + ", one ack request per job)", "jobs", "in-process jobs/s",
				"http jobs/s", "http ÷ in-process", "overhead ms/job", "fetches")
			.row(jobs, inProcess, overHttp, fraction, overheadMs, fetches.get())
			.print(environment.out());
		return new ScenarioResult(name(), jobs, seconds, LatencySummary.EMPTY).with("in_process_jobs_per_sec", inProcess)
			.with("of_in_process", fraction)
			.with("overhead_ms_per_job", overheadMs)
			.with("http_workers", httpWorkers)
			.with("fetch", FETCH);
	}

	private static JsonNode post(HttpClient http, int port, String path, Map<String, Object> body) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Content-Type", "application/openjobspec+json")
			.header("Authorization", "Bearer " + TOKEN)
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
			.build();
		HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
		}
		return JSON.readTree(response.body());
	}

}

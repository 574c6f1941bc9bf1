package dev.ojs.bench.scenario;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * OJS workers over the HTTP binding, in a process of their own ({@link HttpWorkerProcess} starts
 * it): as a worker SDK in another language would, they share nothing with the node but the
 * HTTP connection. Each line on standard input, {@code drain <port> <token> <jobs> <workers>
 * <perWorker> <batchAck>}, drains that many jobs of the queue {@code remote}: each worker
 * fetches {@value HttpScenario#FETCH} at a time and acks each job with a request of its own,
 * {@code perWorker} at a time, or (batchAck) the whole fetch with one {@code x-batch-ack}. The
 * answer is one line, {@code drained <seconds> <fetches>}, or {@code failed <message>}.
 */
public final class RemoteHttpWorkers {

	private static final JsonMapper JSON = new JsonMapper();

	/** A request not answered within this fails its drain, which the benchmark reports. */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

	/** HTTP/1.1 without an upgrade attempt; its connections are kept alive between requests. */
	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private RemoteHttpWorkers() {
	}

	public static void main(String[] args) throws Exception {
		RemoteHttpWorkers workers = new RemoteHttpWorkers();
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line = in.readLine(); line != null; line = in.readLine()) {
			String[] words = line.trim().split(" ");
			try {
				long start = System.nanoTime();
				long fetches = workers.drain(Integer.parseInt(words[1]), words[2], Integer.parseInt(words[3]),
						Integer.parseInt(words[4]), Integer.parseInt(words[5]), Boolean.parseBoolean(words[6]));
				System.out.println(String.format(Locale.ROOT, "drained %.6f %d", (System.nanoTime() - start) / 1e9,
						fetches));
			}
			catch (Exception ex) {
				System.out.println("failed " + String.valueOf(ex).replace('\n', ' '));
			}
			System.out.flush();
		}
	}

	/** Drains {@code jobs} jobs; returns the fetch requests made. */
	private long drain(int port, String token, int jobs, int workerCount, int perWorker, boolean batchAck)
			throws Exception {
		AtomicLong acked = new AtomicLong();
		AtomicLong fetches = new AtomicLong();
		ExecutorService workers = Executors.newFixedThreadPool(workerCount);
		ExecutorService handlers = Executors.newFixedThreadPool(workerCount * perWorker);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < workerCount; w++) {
				String workerId = "bench-" + w;
				futures.add(workers.submit(() -> {
					while (acked.get() < jobs) {
						JsonNode fetched = post(port, token, "/ojs/v1/workers/fetch", Map.of("queues", List.of("remote"),
								"count", HttpScenario.FETCH, "worker_id", workerId)).path("jobs");
						fetches.incrementAndGet();
						if (fetched.isEmpty()) {
							return null;
						}
						if (batchAck) {
							List<Map<String, Object>> acks = new ArrayList<>();
							fetched.forEach((job) -> acks.add(Map.of("job_id", job.path("id").stringValue())));
							post(port, token, "/ojs/v1/workers/ack", Map.of("acks", acks, "worker_id", workerId));
						}
						else {
							ack(port, token, fetched, workerId, perWorker, handlers);
						}
						acked.addAndGet(fetched.size());
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
			handlers.shutdownNow();
		}
		if (acked.get() != jobs) {
			throw new IllegalStateException("HTTP workers acked " + acked.get() + " of " + jobs + " jobs");
		}
		return fetches.get();
	}

	/** Acks each fetched job with a request of its own, {@code perWorker} at a time. */
	private void ack(int port, String token, JsonNode fetched, String workerId, int perWorker,
			ExecutorService handlers) throws Exception {
		List<JsonNode> jobs = new ArrayList<>();
		fetched.forEach(jobs::add);
		List<Future<?>> running = new ArrayList<>();
		for (int from = 0; from < perWorker && from < jobs.size(); from++) {
			int first = from;
			running.add(handlers.submit(() -> {
				for (int i = first; i < jobs.size(); i += perWorker) {
					post(port, token, "/ojs/v1/workers/ack",
							Map.of("job_id", jobs.get(i).path("id").stringValue(), "worker_id", workerId));
				}
				return null;
			}));
		}
		for (Future<?> one : running) {
			one.get();
		}
	}

	private JsonNode post(int port, String token, String path, Map<String, Object> body) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(REQUEST_TIMEOUT)
			.header("Content-Type", "application/openjobspec+json")
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
		}
		return JSON.readTree(response.body());
	}

}

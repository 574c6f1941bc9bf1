package dev.ojs.bench.scenario;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.springframework.boot.web.server.context.WebServerApplicationContext;

import dev.ojs.bench.BenchmarkOptions;
import dev.ojs.bench.LatencyRecorder;
import dev.ojs.bench.LatencySummary;
import dev.ojs.bench.ResultTable;
import dev.ojs.bench.ScenarioResult;
import dev.ojs.spring.JobOptions;

/**
 * HTTP binding: one node drains no-op jobs in process, then {@code --http-workers} workers in
 * another process ({@link RemoteHttpWorkers}) drain as many jobs over the OJS HTTP binding on the
 * same node (batch fetch of {@value #FETCH}; one HTTP/1.1 client whose connections are kept alive), three times:
 * with one ack request per job (the binding's ACK; concurrent acks are written in groups), each
 * worker running its fetched jobs one at a time, then {@code --concurrency} ÷ workers at a time (as
 * many in all as the in-process worker runs, as a worker SDK's concurrency does), then with one ack
 * request per fetch (the extension {@code x-batch-ack}). Reports the rates, each HTTP rate as a
 * fraction of the in-process one, and the overhead per job of the HTTP round trips. Jobs:
 * {@code --drain-jobs} each time, at most {@value #MAX_JOBS}.
 */
final class HttpScenario implements Scenario {

	static final int FETCH = 100;

	static final int MAX_JOBS = 20_000;

	/** A type no handler of the node takes, so only HTTP workers run it. */
	static final String REMOTE_TYPE = "bench.remote_noop";

	private static final String TOKEN = "bench-token";

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
		// over HTTP: an ack request per job, then the x-batch-ack extension (one per fetch)
		int httpWorkers = options.httpWorkers();
		int perWorker = Math.max(1, (options.concurrency() + httpWorkers - 1) / httpWorkers);
		Drained single = overHttp(node, port, jobs, httpWorkers, 1, false);
		Drained concurrent = overHttp(node, port, jobs, httpWorkers, perWorker, false);
		Drained batch = overHttp(node, port, jobs, httpWorkers, 1, true);
		environment.stop(node);
		new ResultTable(name() + ": no-op jobs in process, then over the HTTP binding (" + httpWorkers
				+ " workers, fetch " + FETCH + "; one ack request per job, each worker running its jobs 1 and "
				+ perWorker + " at a time, then one batch ack per fetch)", "jobs", "acks", "in-process jobs/s",
				"http jobs/s", "http ÷ in-process", "overhead ms/job", "fetches")
			.row(jobs, "per job, 1 at a time", inProcess, single.rate(), single.rate() / inProcess,
					1000 / single.rate() - 1000 / inProcess, single.fetches())
			.row(jobs, "per job, " + perWorker + " at a time", inProcess, concurrent.rate(),
					concurrent.rate() / inProcess, 1000 / concurrent.rate() - 1000 / inProcess, concurrent.fetches())
			.row(jobs, "x-batch-ack", inProcess, batch.rate(), batch.rate() / inProcess,
					1000 / batch.rate() - 1000 / inProcess, batch.fetches())
			.print(environment.out());
		return new ScenarioResult(name(), jobs, single.seconds(), LatencySummary.EMPTY)
			.with("in_process_jobs_per_sec", inProcess)
			.with("of_in_process", single.rate() / inProcess)
			.with("overhead_ms_per_job", 1000 / single.rate() - 1000 / inProcess)
			.with("concurrent_jobs_per_sec", concurrent.rate())
			.with("concurrent_of_in_process", concurrent.rate() / inProcess)
			.with("per_worker", perWorker)
			.with("batch_ack_jobs_per_sec", batch.rate())
			.with("batch_ack_of_in_process", batch.rate() / inProcess)
			.with("http_workers", httpWorkers)
			.with("fetch", FETCH);
	}

	/** What the HTTP workers drained: jobs/s, seconds, fetch requests. */
	private record Drained(double rate, double seconds, long fetches) {

	}

	/**
	 * Enqueues {@code jobs} for the HTTP workers and has their process drain them over the
	 * binding, each worker acking the jobs of a fetch {@code perWorker} at a time (one ack each)
	 * or in one request.
	 */
	private static Drained overHttp(BenchEnvironment.Node node, int port, int jobs, int httpWorkers, int perWorker,
			boolean batchAck) throws Exception {
		node.template().enqueueAll(REMOTE_TYPE, Collections.nCopies(jobs, List.of()),
				JobOptions.builder().queue("remote").build());
		HttpWorkerProcess.Drained drained = HttpWorkerProcess.shared()
			.drain(port, TOKEN, jobs, httpWorkers, perWorker, batchAck);
		return new Drained(jobs / drained.seconds(), drained.seconds(), drained.fetches());
	}

}

package dev.ojs.bench.peer;

import java.util.List;
import java.util.Set;

import dev.ojs.bench.BenchmarkOptions;

/**
 * A peer job system in the benchmark. One instance serves one scenario run on tables of its
 * own; {@link #close()} stops its worker and drops its tables.
 */
public interface Peer extends AutoCloseable {

	/** Peer names accepted by {@code --systems}, besides {@code ojs}. */
	List<String> NAMES = List.of("db-scheduler", "jobrunr");

	/** The scenarios a peer runs. */
	Set<String> SCENARIOS = Set.of("enqueue-batch", "drain", "steady", "retry");

	/** How this peer is configured, printed with every result. */
	String configuration();

	/** Whether it can run the retry scenario (fail once, retry after about a millisecond). */
	boolean retries();

	/**
	 * Enqueues jobs in one call of the peer's batch API.
	 * @param enqueuedAtMicros each job's argument: its enqueue time
	 * @param count how many jobs
	 * @param failOnce whether the jobs fail their first attempt
	 */
	void enqueueBatch(long enqueuedAtMicros, int count, boolean failOnce) throws Exception;

	/** Starts processing jobs; handler starts are reported to the probe. */
	void startWorker(PeerProbe probe) throws Exception;

	/** Jobs stored as done (completed, or deleted on completion). */
	long finished() throws Exception;

	/**
	 * A peer for one scenario run.
	 * @param name one of {@link #NAMES}
	 * @param options the benchmark options (database, concurrency, poll interval)
	 * @param prefix a fresh table prefix
	 * @return the peer, its schema created
	 */
	static Peer create(String name, BenchmarkOptions options, String prefix) throws Exception {
		return switch (name) {
			case "db-scheduler" -> new DbSchedulerPeer(options, prefix);
			case "jobrunr" -> new JobRunrPeer(options, prefix);
			default -> throw new IllegalArgumentException("Unknown peer " + name);
		};
	}

}

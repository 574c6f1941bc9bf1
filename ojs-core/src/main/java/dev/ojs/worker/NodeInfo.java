package dev.ojs.worker;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a worker node tells about itself on every heartbeat (ojs-admin-api.md §9).
 *
 * @param nodeId the node's id
 * @param application the application's name, if known
 * @param hostname the host it runs on
 * @param queues the queues it polls
 * @param concurrency its handler slots
 * @param runningJobs attempts it runs now
 * @param startedAt when it started
 * @param lastSeenAt its latest heartbeat
 * @param version the starter's version, if known
 * @param kind {@code in-process} (a worker in the application) or {@code http}
 */
public record NodeInfo(String nodeId, @Nullable String application, String hostname, List<String> queues,
		int concurrency, int runningJobs, Instant startedAt, Instant lastSeenAt, @Nullable String version,
		String kind) {

	/** The kind of the application's own worker. */
	public static final String IN_PROCESS = "in-process";

	public NodeInfo {
		queues = List.copyOf(queues);
	}

}

package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.ojs.admin.AdminStore;
import dev.ojs.admin.JobQuery;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.worker.NodeInfo;
import dev.ojs.worker.Worker;

/**
 * The worker nodes sharing the job store (ojs-admin-api.md §9), as of their latest heartbeat:
 * this application's and every other's, in-process workers and external ones. A node not seen
 * for {@value #STALE_HEARTBEATS} heartbeat intervals is stale: stopped, or cut off from the
 * database.
 * <p>
 * It also holds the signal for each worker that its heartbeats answer (ojs-worker-protocol.md,
 * ojs-admin-api.md §9.3, L1-WRK-002, L1-WRK-003): {@code quiet} (stop fetching, finish the
 * active jobs) or {@code terminate}, set per worker id. Signals live in this node's memory:
 * a worker that heartbeats another node of the application is told that node's.
 */
public class OjsWorkerNodes {

	/** What a worker's heartbeat tells it. */
	public enum Signal {

		RUNNING, QUIET, TERMINATE;

		/** The signal's name on the wire. */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/** Heartbeat intervals without a heartbeat after which a node is stale. */
	public static final int STALE_HEARTBEATS = 3;

	private final AdminStore admin;

	private final Duration heartbeatInterval;

	private final Map<String, Signal> signals = new ConcurrentHashMap<>();

	/**
	 * @param admin the queries over the nodes and jobs
	 */
	public OjsWorkerNodes(AdminStore admin) {
		this(admin, Worker.NODE_HEARTBEAT_INTERVAL);
	}

	/**
	 * @param admin the queries over the nodes and jobs
	 * @param heartbeatInterval how often nodes send a heartbeat
	 */
	public OjsWorkerNodes(AdminStore admin, Duration heartbeatInterval) {
		this.admin = Objects.requireNonNull(admin, "admin must not be null");
		this.heartbeatInterval = Objects.requireNonNull(heartbeatInterval, "heartbeatInterval must not be null");
	}

	/** Every node, by id. */
	public List<WorkerNode> nodes() {
		Instant now = this.admin.now();
		return this.admin.nodes().stream().map((node) -> node(node, now)).toList();
	}

	/** The node of this id, if it has sent a heartbeat. */
	public Optional<WorkerNode> node(String id) {
		return nodes().stream().filter((node) -> node.info().nodeId().equals(id)).findFirst();
	}

	/** How many nodes are not stale. */
	public long running() {
		return nodes().stream().filter((node) -> !node.stale()).count();
	}

	/**
	 * The active jobs the node holds, among the first {@value AdminStore#MAX_PAGE} active
	 * jobs.
	 */
	public List<Job> heldJobs(String id) {
		JobQuery active = JobQuery.ALL.withState(JobState.ACTIVE, null).withPage(null, AdminStore.MAX_PAGE);
		return this.admin.jobs(active).items().stream().filter((job) -> id.equals(job.lockedBy())).toList();
	}

	/** Tells a worker, on its next heartbeat, to stop fetching and finish its active jobs. */
	public void quiet(String workerId) {
		this.signals.put(workerId, Signal.QUIET);
	}

	/** Tells a worker, on its next heartbeat, to shut down and give back its active jobs. */
	public void terminate(String workerId) {
		this.signals.put(workerId, Signal.TERMINATE);
	}

	/** Lets a worker run normally again. */
	public void resume(String workerId) {
		this.signals.remove(workerId);
	}

	/** The signal set for this worker, {@link Signal#RUNNING} when none is. */
	public Signal signal(String workerId) {
		return this.signals.getOrDefault(workerId, Signal.RUNNING);
	}

	private WorkerNode node(NodeInfo node, Instant now) {
		return new WorkerNode(node,
				node.lastSeenAt().plus(this.heartbeatInterval.multipliedBy(STALE_HEARTBEATS)).isBefore(now));
	}

	/**
	 * A worker node.
	 *
	 * @param info what it told on its latest heartbeat
	 * @param stale whether it missed {@value OjsWorkerNodes#STALE_HEARTBEATS} heartbeats
	 */
	public record WorkerNode(NodeInfo info, boolean stale) {

	}

}

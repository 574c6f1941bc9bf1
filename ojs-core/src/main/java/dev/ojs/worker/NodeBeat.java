package dev.ojs.worker;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.IntSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Tells the store this node is alive (ojs-admin-api.md §9): on start and every
 * {@link Worker#NODE_HEARTBEAT_INTERVAL}, one upsert of its row (queues, concurrency,
 * running jobs, last seen); on a clean stop its row is deleted.
 */
final class NodeBeat {

	private static final Log logger = LogFactory.getLog(NodeBeat.class);

	private final WorkerStore store;

	private final String nodeId;

	private final List<String> queues;

	private final int concurrency;

	private final IntSupplier running;

	private final Instant startedAt;

	private final String hostname;

	private final PeriodicTask task;

	NodeBeat(WorkerStore store, String nodeId, List<String> queues, int concurrency, IntSupplier running,
			Duration interval) {
		this.store = store;
		this.nodeId = nodeId;
		this.queues = List.copyOf(queues);
		this.concurrency = concurrency;
		this.running = running;
		this.startedAt = store.now();
		this.hostname = hostname();
		this.task = new PeriodicTask("ojs-node-" + nodeId, this::beat, interval);
	}

	void start() {
		beat();
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
		try {
			this.store.nodeStopped(this.nodeId);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not remove node " + this.nodeId + "; it turns stale instead", ex);
		}
	}

	void beat() {
		try {
			this.store.nodeHeartbeat(new NodeInfo(this.nodeId, null, this.hostname, this.queues, this.concurrency,
					this.running.getAsInt(), this.startedAt, this.store.now(), version(), NodeInfo.IN_PROCESS));
		}
		catch (RuntimeException ex) {
			logger.debug("Node heartbeat of " + this.nodeId + " failed; the next one retries", ex);
		}
	}

	private static @Nullable String version() {
		return NodeBeat.class.getPackage().getImplementationVersion();
	}

	private static String hostname() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

}

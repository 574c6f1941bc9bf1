package dev.ojs.json;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.ojs.spring.OjsWorkerNodes;
import dev.ojs.worker.NodeInfo;

/**
 * A worker node as JSON (ojs-admin-api.md §9). Only the Admin API shows nodes; the
 * {@code ojs} actuator endpoint shows this node's own worker, with its live slots.
 */
public final class WorkerNodeJson {

	private WorkerNodeJson() {
	}

	/** The Admin API's node: {@code running}, or {@code stale} once it missed its heartbeats. */
	public static Map<String, Object> admin(OjsWorkerNodes.WorkerNode node) {
		NodeInfo info = node.info();
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("id", info.nodeId());
		view.put("hostname", info.hostname());
		view.put("application", info.application());
		view.put("state", node.stale() ? "stale" : "running");
		view.put("queues", info.queues());
		view.put("concurrency", info.concurrency());
		view.put("active_jobs", info.runningJobs());
		view.put("started_at", JobJson.Surface.ADMIN.time(info.startedAt()));
		view.put("last_heartbeat_at", JobJson.Surface.ADMIN.time(info.lastSeenAt()));
		view.put("version", info.version());
		view.put("kind", info.kind());
		return view;
	}

}

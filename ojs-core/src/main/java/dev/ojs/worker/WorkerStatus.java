package dev.ojs.worker;

import java.util.List;
import java.util.Map;

/**
 * What a worker node is doing now.
 *
 * @param nodeId this node's reservation owner id
 * @param running whether it is claiming jobs
 * @param queues queue name to its concurrency limit
 * @param activeByQueue queue name to the number of jobs running now
 * @param types the job types this node handles
 */
public record WorkerStatus(String nodeId, boolean running, Map<String, Integer> queues,
		Map<String, Integer> activeByQueue, List<String> types) {

}

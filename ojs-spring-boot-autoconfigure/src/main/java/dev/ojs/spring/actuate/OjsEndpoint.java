package dev.ojs.spring.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.worker.WorkerStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.util.Assert;

/**
 * {@link Endpoint @Endpoint} ({@code /actuator/ojs}) that shows the state of OJS in this
 * application: job counts by queue and state, the registered job handlers with their
 * effective retry policies, and what this node's worker is doing. It only reads.
 */
@Endpoint(id = "ojs")
public class OjsEndpoint {

	/** {@link WorkerDescriptor#mode()} of a node that runs a worker. */
	public static final String MODE_WORKER = "worker";

	/** {@link WorkerDescriptor#mode()} of a node without a worker: it only enqueues. */
	public static final String MODE_ENQUEUE_ONLY = "enqueue-only";

	private final JobStore jobStore;

	private final OjsJobRegistry registry;

	private final Supplier<@Nullable WorkerStatus> workerStatus;

	/**
	 * Creates the endpoint.
	 * @param jobStore the job store
	 * @param registry the registered job handlers
	 * @param workerStatus this node's worker status, supplying {@code null} when the node
	 * has no worker
	 */
	public OjsEndpoint(JobStore jobStore, OjsJobRegistry registry, Supplier<@Nullable WorkerStatus> workerStatus) {
		Assert.notNull(jobStore, "'jobStore' must not be null");
		Assert.notNull(registry, "'registry' must not be null");
		Assert.notNull(workerStatus, "'workerStatus' must not be null");
		this.jobStore = jobStore;
		this.registry = registry;
		this.workerStatus = workerStatus;
	}

	/**
	 * Describes OJS in this application.
	 * @return counts, handlers and worker status
	 */
	@ReadOperation
	public OjsDescriptor ojs() {
		return new OjsDescriptor(queues(this.jobStore.countByQueueAndState()),
				this.registry.jobs().stream().map(HandlerDescriptor::of).toList(),
				WorkerDescriptor.of(this.workerStatus.get()));
	}

	/**
	 * Counts per queue (sorted by name), then per state in lifecycle order, with every state
	 * present so that a missing state reads as 0.
	 */
	static Map<String, Map<String, Long>> queues(Map<String, Map<JobState, Long>> counts) {
		Map<String, Map<String, Long>> queues = new TreeMap<>();
		counts.forEach((queue, byState) -> {
			Map<String, Long> states = new LinkedHashMap<>();
			for (JobState state : JobState.values()) {
				states.put(state.value(), byState.getOrDefault(state, 0L));
			}
			queues.put(queue, states);
		});
		return queues;
	}

	/**
	 * What {@code /actuator/ojs} returns.
	 *
	 * @param queues job counts by queue, then by state
	 * @param handlers the registered job handlers, sorted by type
	 * @param worker this node's worker
	 */
	public record OjsDescriptor(Map<String, Map<String, Long>> queues, List<HandlerDescriptor> handlers,
			WorkerDescriptor worker) implements OperationResponseBody {

	}

	/**
	 * A registered job handler.
	 *
	 * @param type the job type
	 * @param queue its default queue
	 * @param priority its default priority
	 * @param concurrency its per-node limit; 0 = only the queue's limit
	 * @param visibilityTimeout its reservation length, ISO-8601
	 * @param retryPolicy its effective retry policy as the spec's JSON object
	 * @param bean the bean declaring the handler method
	 * @param method the handler method
	 */
	public record HandlerDescriptor(String type, String queue, int priority, int concurrency,
			@Nullable String visibilityTimeout, @Nullable Object retryPolicy, String bean, String method) {

		static HandlerDescriptor of(RegisteredJob job) {
			return new HandlerDescriptor(job.type(), job.queue(), job.priority(), job.concurrency(),
					(job.visibilityTimeout() != null) ? job.visibilityTimeout().toString() : null,
					JsonValues.policy(job.effectivePolicy()), job.beanName(), job.method());
		}

	}

	/**
	 * This node's worker.
	 *
	 * @param mode {@value OjsEndpoint#MODE_WORKER}, or {@value OjsEndpoint#MODE_ENQUEUE_ONLY} when the node has
	 * no worker (then every other field is absent)
	 * @param nodeId the node's reservation owner id
	 * @param running whether it is claiming jobs
	 * @param queues queue name to its concurrency limit
	 * @param activeByQueue queue name to the number of jobs running now
	 * @param types the job types this node handles
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record WorkerDescriptor(String mode, @Nullable String nodeId, @Nullable Boolean running,
			@Nullable Map<String, Integer> queues, @Nullable Map<String, Integer> activeByQueue,
			@Nullable List<String> types) {

		static WorkerDescriptor of(@Nullable WorkerStatus status) {
			if (status == null) {
				return new WorkerDescriptor(MODE_ENQUEUE_ONLY, null, null, null, null, null);
			}
			return new WorkerDescriptor(MODE_WORKER, status.nodeId(), status.running(), status.queues(),
					status.activeByQueue(), status.types());
		}

	}

}

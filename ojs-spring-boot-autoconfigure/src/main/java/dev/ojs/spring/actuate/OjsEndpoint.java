package dev.ojs.spring.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ojs.job.QueueState;
import dev.ojs.json.QueueJson;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.QueueInfo;
import dev.ojs.spring.RegisteredJob;
import dev.ojs.worker.WorkerStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.util.Assert;

/**
 * {@link Endpoint @Endpoint} ({@code /actuator/ojs}) that shows the state of OJS in this
 * application: job counts by queue and state, the paused queues, the registered job handlers
 * with their effective retry policies, and what this node's worker is doing.
 * <p>
 * Its write operations pause and resume a queue (ojs-admin-api.md §6.3, §6.4):
 * {@code POST /actuator/ojs/queues/{queue}/pause} and {@code .../resume}. The endpoint's
 * default access is {@link Access#READ_ONLY}, so they are not available until the
 * application allows them with {@code management.endpoint.ojs.access=unrestricted}.
 */
@Endpoint(id = "ojs", defaultAccess = Access.READ_ONLY)
public class OjsEndpoint {

	/** The first path segment of the queue operations. */
	public static final String QUEUES_SELECTOR = "queues";

	/** The last path segment that pauses a queue. */
	public static final String PAUSE = "pause";

	/** The last path segment that resumes a queue. */
	public static final String RESUME = "resume";

	/** {@link WorkerDescriptor#mode()} of a node that runs a worker. */
	public static final String MODE_WORKER = "worker";

	/** {@link WorkerDescriptor#mode()} of a node without a worker: it only enqueues. */
	public static final String MODE_ENQUEUE_ONLY = "enqueue-only";

	private final OjsQueues queues;

	private final OjsJobRegistry registry;

	private final Supplier<@Nullable WorkerStatus> workerStatus;

	/**
	 * Creates the endpoint.
	 * @param queues lists, pauses and resumes the queues of the job store
	 * @param registry the registered job handlers
	 * @param workerStatus this node's worker status, supplying {@code null} when the node
	 * has no worker
	 */
	public OjsEndpoint(OjsQueues queues, OjsJobRegistry registry, Supplier<@Nullable WorkerStatus> workerStatus) {
		Assert.notNull(queues, "'queues' must not be null");
		Assert.notNull(registry, "'registry' must not be null");
		Assert.notNull(workerStatus, "'workerStatus' must not be null");
		this.queues = queues;
		this.registry = registry;
		this.workerStatus = workerStatus;
	}

	/**
	 * Describes OJS in this application.
	 * @return counts, paused queues, handlers and worker status
	 */
	@ReadOperation
	public OjsDescriptor ojs() {
		List<QueueInfo> queues = this.queues.queues();
		Map<String, Instant> paused = new TreeMap<>();
		queues.stream()
			.filter((queue) -> queue.paused() && queue.pausedAt() != null)
			.forEach((queue) -> paused.put(queue.name(), queue.pausedAt()));
		return new OjsDescriptor(counts(queues), paused,
				this.registry.jobs().stream().map(HandlerDescriptor::of).toList(),
				WorkerDescriptor.of(this.workerStatus.get()));
	}

	/**
	 * Pauses or resumes a queue: {@code POST /actuator/ojs/queues/{queue}/pause} or
	 * {@code .../resume}.
	 * @param queues {@value #QUEUES_SELECTOR}
	 * @param queue the queue name ({@link dev.ojs.spring.OjsNames})
	 * @param action {@value #PAUSE} or {@value #RESUME}
	 * @return the queue's state now
	 * @throws InvalidEndpointRequestException (400) for another path or an invalid name, with
	 * the message every edge gives
	 */
	@WriteOperation
	public QueueStateDescriptor queue(@Selector String queues, @Selector String queue, @Selector String action) {
		if (!QUEUES_SELECTOR.equals(queues) || !(PAUSE.equals(action) || RESUME.equals(action))) {
			throw invalid("Use POST /actuator/ojs/queues/{queue}/pause or /actuator/ojs/queues/{queue}/resume");
		}
		try {
			return QueueStateDescriptor.of(PAUSE.equals(action) ? this.queues.pause(queue) : this.queues.resume(queue));
		}
		catch (IllegalArgumentException ex) {
			throw invalid(ex.getMessage());
		}
	}

	private static InvalidEndpointRequestException invalid(String message) {
		return new InvalidEndpointRequestException(message, message);
	}

	/**
	 * Counts per queue (sorted by name), then per state in lifecycle order, with every state
	 * present so that a missing state reads as 0; dead letters apart from the other
	 * {@code discarded} jobs, as {@value OjsDeadLetters#STATE} as on every surface.
	 */
	static Map<String, Map<String, Long>> counts(List<QueueInfo> queues) {
		Map<String, Map<String, Long>> counts = new TreeMap<>();
		for (QueueInfo queue : queues) {
			counts.put(queue.name(), QueueJson.countsWithDeadLetters(queue));
		}
		return counts;
	}

	/**
	 * What {@code /actuator/ojs} returns.
	 *
	 * @param queues job counts by queue, then by state; a paused queue without jobs too
	 * @param pausedQueues the paused queues, each with when it was paused
	 * @param handlers the registered job handlers, sorted by type
	 * @param worker this node's worker
	 */
	public record OjsDescriptor(Map<String, Map<String, Long>> queues, Map<String, Instant> pausedQueues,
			List<HandlerDescriptor> handlers, WorkerDescriptor worker) implements OperationResponseBody {

	}

	/**
	 * A queue's state after a pause or resume (ojs-admin-api.md §6.3).
	 *
	 * @param name the queue name
	 * @param paused whether it is paused
	 * @param pausedAt when it was paused, or {@code null} when it is not
	 */
	public record QueueStateDescriptor(String name, boolean paused, @Nullable Instant pausedAt)
			implements OperationResponseBody {

		static QueueStateDescriptor of(QueueState state) {
			return new QueueStateDescriptor(state.name(), state.paused(), state.pausedAt());
		}

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

package dev.ojs.spring.observation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

/**
 * The context of an {@link OjsObservationDocumentation#JOB_ENQUEUE enqueue} observation.
 * Its carrier collects the trace context fields the tracing handler propagates
 * ({@code traceparent}, {@code tracestate}, ...); they are stored in the {@code meta} of
 * every job of the enqueue (ojs-distributed-tracing.md §6.1, DT-001).
 */
public class JobEnqueueContext extends SenderContext<Map<String, String>> {

	private final String type;

	private final int jobCount;

	private @Nullable String queue;

	private List<String> jobIds = List.of();

	/**
	 * @param type the job type
	 * @param jobCount how many jobs the enqueue writes
	 */
	public JobEnqueueContext(String type, int jobCount) {
		super((carrier, key, value) -> {
			if (carrier != null) {
				carrier.put(key, value);
			}
		}, Kind.PRODUCER);
		setCarrier(new LinkedHashMap<>());
		this.type = type;
		this.jobCount = jobCount;
	}

	/** The trace context fields to store in each job's {@code meta}. */
	public Map<String, String> traceFields() {
		Map<String, String> carrier = getCarrier();
		return (carrier != null) ? carrier : Map.of();
	}

	public String getType() {
		return this.type;
	}

	/** How many jobs the enqueue writes: 1, or more for an {@code enqueueAll}. */
	public int getJobCount() {
		return this.jobCount;
	}

	/** The jobs' queue, once resolved. */
	public @Nullable String getQueue() {
		return this.queue;
	}

	public void setQueue(@Nullable String queue) {
		this.queue = queue;
	}

	/** The ids of the stored jobs, once stored. */
	public List<String> getJobIds() {
		return this.jobIds;
	}

	public void setJobIds(List<String> jobIds) {
		this.jobIds = List.copyOf(jobIds);
	}

}

package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.spring.JobContext;
import dev.ojs.worker.Attempt;

/**
 * {@link JobContext} over the worker's {@link Attempt}.
 */
final class AttemptJobContext implements JobContext {

	private final Attempt attempt;

	/** Reads the parent results; {@code null} where no handler method reads them. */
	private final @Nullable JsonMapper jsonMapper;

	AttemptJobContext(Attempt attempt) {
		this(attempt, null);
	}

	AttemptJobContext(Attempt attempt, @Nullable JsonMapper jsonMapper) {
		this.attempt = attempt;
		this.jsonMapper = jsonMapper;
	}

	private Job job() {
		return this.attempt.job();
	}

	@Override
	public String id() {
		return job().id();
	}

	@Override
	public String type() {
		return job().type();
	}

	@Override
	public String queue() {
		return job().queue();
	}

	@Override
	public int attempt() {
		return job().attempt();
	}

	@Override
	public int maxAttempts() {
		Integer maxAttempts = this.attempt.retryPolicy().maxAttempts();
		return (maxAttempts != null) ? maxAttempts : job().maxAttempts();
	}

	@Override
	public List<ErrorEntry> previousErrors() {
		return job().errors();
	}

	@Override
	public String metaJson() {
		return job().metaJson();
	}

	@Override
	public @Nullable String workflowId() {
		return job().workflowId();
	}

	@Override
	public @Nullable WorkflowPlace workflowPlace() {
		return job().workflowPlace();
	}

	@Override
	public @Nullable String parentResultsJson() {
		return job().parentResultsJson();
	}

	@Override
	public <T> List<T> parentResults(Class<T> type) {
		String json = parentResultsJson();
		if (json == null) {
			return List.of();
		}
		JsonMapper mapper = (this.jsonMapper != null) ? this.jsonMapper : JsonMapper.shared();
		List<T> results = new ArrayList<>();
		for (JsonNode result : mapper.readTree(json)) {
			results.add(result.isNull() ? null : mapper.treeToValue(result, type));
		}
		return results;
	}

	@Override
	public void heartbeat() {
		this.attempt.heartbeat();
	}

	@Override
	public boolean isCancelled() {
		return this.attempt.isCancelled();
	}

	@Override
	public String toString() {
		return "JobContext[id=" + id() + ", type=" + type() + ", attempt=" + attempt() + "/" + maxAttempts() + "]";
	}

}

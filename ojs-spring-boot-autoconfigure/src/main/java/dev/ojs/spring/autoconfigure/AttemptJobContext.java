package dev.ojs.spring.autoconfigure;

import java.util.List;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.spring.JobContext;
import dev.ojs.worker.Attempt;

/**
 * {@link JobContext} over the worker's {@link Attempt}.
 */
final class AttemptJobContext implements JobContext {

	private final Attempt attempt;

	AttemptJobContext(Attempt attempt) {
		this.attempt = attempt;
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

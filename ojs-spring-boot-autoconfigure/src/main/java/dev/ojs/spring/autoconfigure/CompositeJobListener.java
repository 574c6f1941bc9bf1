package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.worker.JobListener;

/**
 * Tells every delegate, in order, of each outcome; a delegate that throws is logged and does
 * not stop the others. Delegates run synchronously on the thread that wrote the outcome (for
 * handler outcomes the node's single completer thread), so each must be fast.
 */
final class CompositeJobListener implements JobListener {

	private static final Log logger = LogFactory.getLog(CompositeJobListener.class);

	private final List<JobListener> delegates;

	CompositeJobListener(List<JobListener> delegates) {
		this.delegates = List.copyOf(delegates);
	}

	/** The single listener to give the worker. */
	static JobListener of(List<JobListener> delegates) {
		return switch (delegates.size()) {
			case 0 -> JobListener.NONE;
			case 1 -> delegates.get(0);
			default -> new CompositeJobListener(delegates);
		};
	}

	@Override
	public void started(Job job) {
		forEach((listener) -> listener.started(job));
	}

	@Override
	public void heartbeat(Job job, Instant visibleUntil) {
		forEach((listener) -> listener.heartbeat(job, visibleUntil));
	}

	@Override
	public void completed(Job job, Duration handlerDuration) {
		forEach((listener) -> listener.completed(job, handlerDuration));
	}

	@Override
	public void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
		forEach((listener) -> listener.retrying(job, error, nextRetryAt, delay, handlerDuration));
	}

	@Override
	public void discarded(Job job, JobError error, Duration handlerDuration) {
		forEach((listener) -> listener.discarded(job, error, handlerDuration));
	}

	@Override
	public void deadLettered(Job job, JobError error, Duration handlerDuration) {
		forEach((listener) -> listener.deadLettered(job, error, handlerDuration));
	}

	private void forEach(Consumer<JobListener> call) {
		for (JobListener delegate : this.delegates) {
			try {
				call.accept(delegate);
			}
			catch (RuntimeException ex) {
				logger.warn("JobListener " + delegate + " failed", ex);
			}
		}
	}

}

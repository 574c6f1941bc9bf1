package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobCompletedEvent;
import dev.ojs.spring.JobDeadLetteredEvent;
import dev.ojs.spring.JobDiscardedEvent;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.JobRetryingEvent;
import dev.ojs.spring.OjsJobEvent;
import dev.ojs.worker.JobEventListener;

/**
 * Publishes the worker's outcomes as Spring application events ({@link JobCompletedEvent},
 * {@link JobRetryingEvent}, {@link JobDiscardedEvent}, {@link JobDeadLetteredEvent}),
 * synchronously, on the thread that wrote the outcome: for handler outcomes the node's single
 * completer thread (see {@link OjsJobEvent}). Synchronous event listeners must therefore be
 * fast; slow work belongs in {@code @Async} listeners. Exceptions thrown by event listeners
 * are logged, never propagated to the worker.
 */
public class ApplicationEventJobEventListener implements JobEventListener {

	private static final Log logger = LogFactory.getLog(ApplicationEventJobEventListener.class);

	private final ApplicationEventPublisher publisher;

	public ApplicationEventJobEventListener(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void completed(Job job, Duration handlerDuration) {
		publish(new JobCompletedEvent(JobInfo.of(job), handlerDuration));
	}

	@Override
	public void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
		publish(new JobRetryingEvent(JobInfo.of(job), error, nextRetryAt, delay, handlerDuration));
	}

	@Override
	public void discarded(Job job, JobError error, Duration handlerDuration) {
		publish(new JobDiscardedEvent(JobInfo.of(job), error, handlerDuration));
	}

	@Override
	public void deadLettered(Job job, JobError error, Duration handlerDuration) {
		publish(new JobDeadLetteredEvent(JobInfo.of(job), error, handlerDuration));
	}

	private void publish(OjsJobEvent event) {
		try {
			this.publisher.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("Listener of " + event + " failed", ex);
		}
	}

}

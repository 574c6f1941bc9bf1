package dev.ojs.web.http;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.ojs.job.JobState;
import dev.ojs.job.JobIds;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobCancelledEvent;
import dev.ojs.spring.JobCompletedEvent;
import dev.ojs.spring.JobDeadLetteredEvent;
import dev.ojs.spring.JobDiscardedEvent;
import dev.ojs.spring.JobEnqueuedEvent;
import dev.ojs.spring.JobHeartbeatEvent;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.JobRetryingEvent;
import dev.ojs.spring.JobStartedEvent;
import dev.ojs.spring.OjsJobEvent;
import dev.ojs.spring.OjsJobFailureEvent;
import dev.ojs.spring.OjsJobListener;
import dev.ojs.worker.Expirer;

/**
 * The job lifecycle events of ojs-events.md §3.1 ({@code job.enqueued}, {@code job.started},
 * {@code job.completed}, {@code job.failed}, {@code job.discarded}) and {@code job.retrying},
 * built from the engine's job events of this node (in-process and HTTP workers alike) and
 * {@link JobEnqueuedEvent}s and {@link JobCancelledEvent}s of {@code OjsTemplate}, in the event envelope of §2, for the subscribers of
 * {@code GET /ojs/v1/events} (spec README decision 11). Events are handed to one delivery
 * thread, so the engine's threads never wait for a subscriber; a subscriber that cannot be
 * written to is dropped. Its streams end when the application stops, ahead of the web
 * server's graceful shutdown, which would otherwise wait for them.
 */
public class OjsEventStream implements OjsJobListener, SmartLifecycle, DisposableBean {

	private static final Log logger = LogFactory.getLog(OjsEventStream.class);

	/** Events waiting for delivery; more are dropped (and logged). */
	static final int BACKLOG = 10_000;

	private final String service;

	private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

	private volatile boolean running;

	private final ThreadPoolExecutor delivery = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new ArrayBlockingQueue<>(BACKLOG), (runnable) -> {
				Thread thread = new Thread(runnable, "ojs-events");
				thread.setDaemon(true);
				return thread;
			}, (runnable, executor) -> logger.warn("OJS event stream backlog full: an event was dropped"));

	/** @param service the service name in each event's {@code source} URI (§2.4) */
	public OjsEventStream(String service) {
		this.service = service;
	}

	/**
	 * Subscribes to the events of these event types, queues and job types (each empty for
	 * all), until the client goes away.
	 */
	SseEmitter subscribe(Set<String> types, Set<String> queues, Set<String> jobTypes) {
		SseEmitter emitter = new SseEmitter(0L);
		Subscriber subscriber = new Subscriber(emitter, types, queues, jobTypes);
		this.subscribers.add(subscriber);
		emitter.onCompletion(() -> this.subscribers.remove(subscriber));
		emitter.onTimeout(() -> this.subscribers.remove(subscriber));
		emitter.onError((ex) -> this.subscribers.remove(subscriber));
		if (!this.running) {
			closeAll();
		}
		return emitter;
	}

	int subscriberCount() {
		return this.subscribers.size();
	}

	@EventListener
	public void enqueued(JobEnqueuedEvent event) {
		Map<String, Object> data = data(event.getJobId(), event.getType(), event.getQueue(),
				event.isPending() ? JobState.PENDING
						: (event.getRunAt() != null && event.getRunAt().isAfter(event.getEnqueuedAt())) ? JobState.SCHEDULED
								: JobState.AVAILABLE);
		data.put("priority", event.getPriority());
		if (event.getRunAt() != null) {
			data.put("scheduled_at", JobJson.timestamp(event.getRunAt()));
		}
		publish("job.enqueued", "api", event.getJobId(), data);
	}

	/** §4.1 {@code job.cancelled} (L1-EVT-002). */
	@EventListener
	public void cancelled(JobCancelledEvent event) {
		JobInfo job = event.getJob();
		Map<String, Object> data = data(job.id(), job.type(), job.queue(), JobState.CANCELLED);
		data.put("cancelled_at", JobJson.timestamp(job.discardedAt()));
		publish("job.cancelled", "api", job.id(), data);
	}

	@Override
	public void onStarted(JobStartedEvent event) {
		Map<String, Object> data = data(event, JobState.ACTIVE);
		data.put("worker_id", JobJson.workerId(event.getOwner()));
		data.put("attempt", event.getAttempt());
		publish("job.started", "workers", event.getJobId(), data);
	}

	/** §4.1 {@code job.heartbeat}. */
	@Override
	public void onHeartbeat(JobHeartbeatEvent event) {
		Map<String, Object> data = data(event, JobState.ACTIVE);
		data.put("worker_id", JobJson.workerId(event.getOwner()));
		data.put("attempt", event.getAttempt());
		data.put("visible_until", JobJson.timestamp(event.getVisibleUntil()));
		publish("job.heartbeat", "workers", event.getJobId(), data);
	}

	@Override
	public void onCompleted(JobCompletedEvent event) {
		Map<String, Object> data = data(event, JobState.COMPLETED);
		data.put("duration_ms", event.getHandlerDuration().toMillis());
		data.put("attempt", event.getAttempt());
		data.put("result", null);
		publish("job.completed", "workers", event.getJobId(), data);
	}

	@Override
	public void onRetrying(JobRetryingEvent event) {
		failed(event, JobState.RETRYABLE, true);
		Map<String, Object> data = data(event, JobState.RETRYABLE);
		data.put("attempt", event.getAttempt());
		data.put("max_attempts", event.getJob().maxAttempts());
		data.put("next_retry_at", JobJson.timestamp(event.getNextRetryAt()));
		data.put("error", error(event.getError(), null));
		publish("job.retrying", "workers", event.getJobId(), data);
	}

	@Override
	public void onDiscarded(JobDiscardedEvent event) {
		if (event.getAttempt() == 0 && Expirer.ERROR_TYPE.equals(event.getError().type())) {
			// no attempt failed: the job expired before it ran
			expired(event);
		}
		else {
			failed(event, JobState.DISCARDED, false);
		}
		discarded(event);
	}

	/** ojs-events.md {@code job.expired}: the job's {@code expires_at} passed before it ran. */
	private void expired(JobDiscardedEvent event) {
		Map<String, Object> data = data(event, JobState.DISCARDED);
		data.put("created_at", JobJson.timestamp(event.getJob().createdAt()));
		Instant expiresAt = Instant.parse(String.valueOf(event.getError().details().get(Expirer.EXPIRES_AT)));
		Instant expiredAt = Instant.parse(String.valueOf(event.getError().details().get(Expirer.EXPIRED_AT)));
		data.put("expired_at", JobJson.timestamp(expiredAt));
		data.put("expires_at", JobJson.timestamp(expiresAt));
		data.put("ttl_ms", Duration.between(event.getJob().createdAt(), expiresAt).toMillis());
		publish("job.expired", "workers", event.getJobId(), data);
	}

	@Override
	public void onDeadLettered(JobDeadLetteredEvent event) {
		failed(event, JobState.DISCARDED, false);
		discarded(event);
	}

	/** §4.1 {@code job.failed}: every failed attempt. */
	private void failed(OjsJobFailureEvent event, JobState state, boolean retryable) {
		Map<String, Object> data = data(event, state);
		data.put("attempt", event.getAttempt());
		data.put("error", error(event.getError(), retryable));
		data.put("duration_ms", event.getHandlerDuration().toMillis());
		publish("job.failed", "workers", event.getJobId(), data);
	}

	private void discarded(OjsJobFailureEvent event) {
		Map<String, Object> data = data(event, JobState.DISCARDED);
		data.put("total_attempts", event.getAttempt());
		data.put("last_error", error(event.getError(), false));
		publish("job.discarded", "workers", event.getJobId(), data);
	}

	private static Map<String, Object> data(OjsJobEvent event, JobState state) {
		return data(event.getJobId(), event.getType(), event.getQueue(), state);
	}

	/** The data every job event carries (L0-EVT-002: job id, type, queue, state). */
	private static Map<String, Object> data(String jobId, String type, String queue, JobState state) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("job_id", jobId);
		data.put("job_type", type);
		data.put("queue", queue);
		data.put("state", state.value());
		return data;
	}

	private static Map<String, Object> error(JobError error, @Nullable Boolean retryable) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("code", error.type());
		json.put("message", error.message());
		if (retryable != null) {
			json.put("retryable", retryable);
		}
		return json;
	}

	/** The §2.1 envelope, handed to the delivery thread when anyone listens. */
	private void publish(String type, String component, String jobId, Map<String, Object> data) {
		if (this.subscribers.isEmpty()) {
			return;
		}
		Map<String, Object> event = new LinkedHashMap<>();
		String id = "evt_" + JobIds.newId();
		event.put("specversion", "1.0");
		event.put("id", id);
		event.put("type", type);
		event.put("source", "ojs://" + this.service + "/" + component);
		event.put("time", JobJson.timestamp(Instant.now()));
		event.put("subject", jobId);
		event.put("datacontenttype", "application/json");
		event.put("data", data);
		this.delivery.execute(() -> deliver(id, type, event));
	}

	private void deliver(String id, String type, Map<String, Object> event) {
		@SuppressWarnings("unchecked")
		Map<String, Object> data = (Map<String, Object>) event.get("data");
		for (Subscriber subscriber : this.subscribers) {
			if (!subscriber.wants(type, (String) data.get("queue"), (String) data.get("job_type"))) {
				continue;
			}
			try {
				subscriber.emitter().send(SseEmitter.event().id(id).name(type).data(event, MediaType.APPLICATION_JSON));
			}
			catch (IOException | RuntimeException ex) {
				this.subscribers.remove(subscriber);
				subscriber.emitter().completeWithError(ex);
			}
		}
	}

	@Override
	public void start() {
		this.running = true;
	}

	/** Ends every stream: the web server's graceful shutdown (a later phase) waits for none. */
	@Override
	public void stop() {
		this.running = false;
		closeAll();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	private void closeAll() {
		this.subscribers.forEach((subscriber) -> subscriber.emitter().complete());
		this.subscribers.clear();
	}

	@Override
	public void destroy() {
		this.delivery.shutdownNow();
		closeAll();
	}

	private record Subscriber(SseEmitter emitter, Set<String> types, Set<String> queues, Set<String> jobTypes) {

		boolean wants(String type, String queue, String jobType) {
			return (this.types.isEmpty() || this.types.contains(type))
					&& (this.queues.isEmpty() || this.queues.contains(queue))
					&& (this.jobTypes.isEmpty() || this.jobTypes.contains(jobType));
		}

	}

}

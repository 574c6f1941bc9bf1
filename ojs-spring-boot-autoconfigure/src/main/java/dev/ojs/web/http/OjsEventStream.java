package dev.ojs.web.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.util.Assert;

import dev.ojs.job.JobIds;
import dev.ojs.job.JobState;
import dev.ojs.json.JobJson;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.event.JobCancelledEvent;
import dev.ojs.spring.event.WorkflowCompletedEvent;
import dev.ojs.spring.event.WorkflowFailedEvent;
import dev.ojs.spring.event.WorkflowStartedEvent;
import dev.ojs.spring.event.WorkflowStepCompletedEvent;
import dev.ojs.workflow.Workflow;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobEnqueuedEvent;
import dev.ojs.spring.event.JobHeartbeatEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.JobStartedEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.spring.event.OjsJobFailureEvent;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.worker.Expirer;

/**
 * The job lifecycle events of ojs-events.md §3.1 ({@code job.enqueued}, {@code job.started},
 * {@code job.completed}, {@code job.failed}, {@code job.discarded}) and {@code job.retrying},
 * built from the engine's job events of this node (in-process and HTTP workers alike) and
 * {@link JobEnqueuedEvent}s and {@link JobCancelledEvent}s of {@code OjsTemplate}, in the event envelope of §2, for the subscribers of
 * {@code GET /ojs/v1/events} (spec README decision 11), and the last of them kept in a
 * bounded ring for clients that ask for them as JSON (ojs-events.md §6.4; this node's events
 * only, as the stream).
 * <p>
 * At most {@code maxSubscribers} subscribe at once. Publishing an event encodes it once and
 * offers it to the bounded buffer of each subscriber that wants it, never waiting: the
 * engine's threads never wait for a subscriber, and no thread waits for one subscriber's
 * socket, since every write is non-blocking ({@link EventOutput}). A subscriber whose buffer
 * is full is dropped. Every subscriber gets a comment line every {@code keepAlive}, so that
 * streams of clients that went away end. The streams end when the application stops, ahead
 * of the web server's graceful shutdown, which would otherwise wait for them.
 */
public class OjsEventStream implements OjsJobListener, SmartLifecycle, DisposableBean {

	private static final Log logger = LogFactory.getLog(OjsEventStream.class);

	/** Default of {@code ojs.http.events.max-subscribers}. */
	public static final int DEFAULT_MAX_SUBSCRIBERS = 100;

	/** Default of {@code ojs.http.events.buffer-size}. */
	public static final int DEFAULT_BUFFER_SIZE = 1000;

	/** Default of {@code ojs.http.events.keep-alive}. */
	public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(15);

	/** Default of {@code ojs.http.events.recent-size}. */
	public static final int DEFAULT_RECENT_SIZE = 1000;

	/** An SSE comment line: keeps the connection in use, so a closed one is noticed. */
	private static final byte[] KEEP_ALIVE = ":\n\n".getBytes(StandardCharsets.UTF_8);

	private final String service;

	private final JsonMapper jsonMapper;

	private final int maxSubscribers;

	private final int bufferSize;

	private final Duration keepAlive;

	/** The last events, for clients that ask for them as JSON. */
	private final RecentEvents recent;

	private final List<EventSubscriber> subscribers = new CopyOnWriteArrayList<>();

	/** One per subscriber; taken before a stream is opened, given back when it ends. */
	private final Semaphore slots;

	private final DropLog drops = new DropLog(logger, Duration.ofSeconds(10), System::nanoTime);

	/** Delivers what events ask for and sends the keep-alive lines; never blocks on a socket. */
	private final ScheduledThreadPoolExecutor writer = new ScheduledThreadPoolExecutor(1, (runnable) -> {
		Thread thread = new Thread(runnable, "ojs-events");
		thread.setDaemon(true);
		return thread;
	});

	private @Nullable ScheduledFuture<?> keepAliveTask;

	private volatile boolean running;

	/** @param service the service name in each event's {@code source} URI (§2.4) */
	public OjsEventStream(String service) {
		this(service, new JsonMapper(), DEFAULT_MAX_SUBSCRIBERS, DEFAULT_BUFFER_SIZE, DEFAULT_KEEP_ALIVE);
	}

	/**
	 * An event stream keeping the last {@value #DEFAULT_RECENT_SIZE} events.
	 * @param service the service name in each event's {@code source} URI (§2.4)
	 * @param jsonMapper writes the envelopes
	 * @param maxSubscribers how many may subscribe at once
	 * @param bufferSize how many events may wait for one subscriber before it is dropped
	 * @param keepAlive how often each subscriber gets a comment line
	 */
	public OjsEventStream(String service, JsonMapper jsonMapper, int maxSubscribers, int bufferSize,
			Duration keepAlive) {
		this(service, jsonMapper, maxSubscribers, bufferSize, keepAlive, DEFAULT_RECENT_SIZE);
	}

	/**
	 * @param service the service name in each event's {@code source} URI (§2.4)
	 * @param jsonMapper writes the envelopes
	 * @param maxSubscribers how many may subscribe at once
	 * @param bufferSize how many events may wait for one subscriber before it is dropped
	 * @param keepAlive how often each subscriber gets a comment line
	 * @param recentSize how many of the last events this node keeps for clients that ask for
	 * them as JSON (0 for none)
	 */
	public OjsEventStream(String service, JsonMapper jsonMapper, int maxSubscribers, int bufferSize,
			Duration keepAlive, int recentSize) {
		Assert.isTrue(maxSubscribers >= 1, "maxSubscribers must be at least 1");
		Assert.isTrue(bufferSize >= 1, "bufferSize must be at least 1");
		Assert.isTrue(!keepAlive.isNegative() && !keepAlive.isZero(), "keepAlive must be positive");
		this.service = service;
		this.jsonMapper = jsonMapper;
		this.maxSubscribers = maxSubscribers;
		this.bufferSize = bufferSize;
		this.keepAlive = keepAlive;
		this.slots = new Semaphore(maxSubscribers);
		this.recent = new RecentEvents(recentSize);
		this.writer.setRemoveOnCancelPolicy(true);
	}

	/**
	 * Subscribes to the events of these event types, queues and job types (each empty for
	 * all), until the client goes away.
	 * @param output opens the subscriber's output, once a place is free
	 * @return the subscriber, or {@code null} when {@link #maxSubscribers()} subscribe
	 * already (and no output was opened)
	 */
	@Nullable EventSubscriber subscribe(Set<String> types, Set<String> queues, Set<String> jobTypes,
			EventOutput.Opener output) throws IOException {
		if (!this.slots.tryAcquire()) {
			return null;
		}
		EventSubscriber subscriber;
		try {
			subscriber = new EventSubscriber(types, queues, jobTypes, output.open(), this.bufferSize, this.writer,
					this::ended);
		}
		catch (IOException | RuntimeException ex) {
			this.slots.release();
			throw ex;
		}
		this.subscribers.add(subscriber);
		subscriber.start();
		if (!this.running) {
			subscriber.close();
		}
		return subscriber;
	}

	private void ended(EventSubscriber subscriber) {
		this.subscribers.remove(subscriber);
		this.slots.release();
	}

	/** How many subscribe now: the places taken, the one count the limit is held to. */
	int subscriberCount() {
		return this.maxSubscribers - this.slots.availablePermits();
	}

	/** How many may subscribe at once. */
	int maxSubscribers() {
		return this.maxSubscribers;
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

	/** §3.5 {@code workflow.started}. */
	@EventListener
	public void workflowStarted(WorkflowStartedEvent event) {
		Map<String, Object> data = workflowData(event.getWorkflow());
		data.put("total_steps", event.getWorkflow().total());
		publish("workflow.started", "workflows", event.getWorkflow().id(), data);
	}

	/** §3.5 {@code workflow.step_completed}. */
	@EventListener
	public void workflowStepCompleted(WorkflowStepCompletedEvent event) {
		Map<String, Object> data = workflowData(event.getWorkflow());
		data.put("step_id", event.getStep().jobId());
		data.put("step_type", event.getStep().type());
		data.put("step_index", event.getStep().step());
		data.put("duration_ms", event.getDuration().toMillis());
		data.put("steps_remaining", event.getStepsRemaining());
		publish("workflow.step_completed", "workflows", event.getWorkflow().id(), data);
	}

	/** §3.5 {@code workflow.completed}. */
	@EventListener
	public void workflowCompleted(WorkflowCompletedEvent event) {
		Workflow workflow = event.getWorkflow();
		Map<String, Object> data = workflowData(workflow);
		data.put("total_steps", workflow.total());
		data.put("duration_ms", (workflow.finishedAt() != null)
				? Duration.between(workflow.createdAt(), workflow.finishedAt()).toMillis() : null);
		publish("workflow.completed", "workflows", workflow.id(), data);
	}

	/** §3.5 {@code workflow.failed}. */
	@EventListener
	public void workflowFailed(WorkflowFailedEvent event) {
		Map<String, Object> data = workflowData(event.getWorkflow());
		data.put("failed_step_id", (event.getFailedStep() != null) ? event.getFailedStep().jobId() : null);
		data.put("failed_step_type", (event.getFailedStep() != null) ? event.getFailedStep().type() : null);
		data.put("error", (event.getError() != null) ? JobJson.error(event.getError(), JobJson.Surface.BINDING) : null);
		publish("workflow.failed", "workflows", event.getWorkflow().id(), data);
	}

	/** The fields of every workflow event: its id, name (its type when it has none) and type. */
	private static Map<String, Object> workflowData(Workflow workflow) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("workflow_id", workflow.id());
		data.put("workflow_name", (workflow.name() != null) ? workflow.name() : workflow.type().value());
		data.put("workflow_type", workflow.type().value());
		return data;
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

	/**
	 * The §2.1 envelope, when anyone listens or the recent events are kept: kept in the
	 * recent events, encoded once and offered to every subscriber that wants it, dropping
	 * those whose buffer is full.
	 */
	void publish(String type, String component, String jobId, Map<String, Object> data) {
		if (this.subscribers.isEmpty() && !this.recent.isEnabled()) {
			return;
		}
		String id = "evt_" + JobIds.newId();
		Map<String, Object> envelope = envelope(id, type, component, jobId, data);
		String queue = (String) data.get("queue");
		String jobType = (String) data.get("job_type");
		this.recent.add(new RecentEvents.Event(id, type, queue, jobType, envelope));
		byte[] encoded = null;
		for (EventSubscriber subscriber : this.subscribers) {
			if (!subscriber.wants(type, queue, jobType)) {
				continue;
			}
			if (encoded == null) {
				String json = this.jsonMapper.writeValueAsString(envelope);
				encoded = ("id:" + id + "\nevent:" + type + "\ndata:" + json + "\n\n").getBytes(StandardCharsets.UTF_8);
			}
			offer(subscriber, encoded);
		}
	}

	/**
	 * The recent events of this node that match, oldest first (ojs-events.md §6.4): after
	 * the event {@code after}, or else the last {@code limit}; each filter empty for all.
	 */
	RecentEvents.Page recent(@Nullable String after, Set<String> types, Set<String> queues, Set<String> jobTypes,
			int limit) {
		return this.recent.page(after, types, queues, jobTypes, limit);
	}

	/** The §2.1 envelope; a server-sent event carries it as JSON data. */
	private Map<String, Object> envelope(String id, String type, String component, String jobId,
			Map<String, Object> data) {
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("specversion", "1.0");
		event.put("id", id);
		event.put("type", type);
		event.put("source", "ojs://" + this.service + "/" + component);
		event.put("time", JobJson.timestamp(Instant.now()));
		event.put("subject", jobId);
		event.put("datacontenttype", "application/json");
		event.put("data", data);
		return event;
	}

	private void offer(EventSubscriber subscriber, byte[] encoded) {
		if (!subscriber.offer(encoded) && subscriber.close()) {
			this.drops.dropped(this.bufferSize);
		}
	}

	private void keepAlive() {
		for (EventSubscriber subscriber : this.subscribers) {
			offer(subscriber, KEEP_ALIVE);
		}
	}

	@Override
	public synchronized void start() {
		this.running = true;
		if (this.keepAliveTask == null) {
			long period = this.keepAlive.toNanos();
			this.keepAliveTask = this.writer.scheduleAtFixedRate(this::keepAlive, period, period, TimeUnit.NANOSECONDS);
		}
	}

	/** Ends every stream: the web server's graceful shutdown (a later phase) waits for none. */
	@Override
	public synchronized void stop() {
		this.running = false;
		if (this.keepAliveTask != null) {
			this.keepAliveTask.cancel(false);
			this.keepAliveTask = null;
		}
		closeAll();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	private void closeAll() {
		this.subscribers.forEach(EventSubscriber::close);
	}

	@Override
	public void destroy() {
		this.writer.shutdownNow();
		closeAll();
	}

}

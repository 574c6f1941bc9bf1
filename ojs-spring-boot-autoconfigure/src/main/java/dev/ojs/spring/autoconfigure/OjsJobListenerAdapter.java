package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.function.SingletonSupplier;

import dev.ojs.job.Job;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobHeartbeatEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.JobStartedEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.spring.event.OjsJobListener;
import dev.ojs.worker.JobListener;

/**
 * Turns the worker's outcomes into the public events and hands each to the
 * {@link OjsJobListener listeners} that {@link OjsJobListener#supportsEventType support} its
 * type, in order. Which listeners want which type is asked once, at the first outcome (after
 * the context has registered every application listener); an outcome that no listener wants
 * builds no event.
 */
final class OjsJobListenerAdapter implements JobListener {

	private static final Log logger = LogFactory.getLog(OjsJobListenerAdapter.class);

	private final Supplier<Routes> routes;

	private final Function<Job, JobInfo> info;

	private OjsJobListenerAdapter(List<OjsJobListener> listeners, Function<Job, JobInfo> info) {
		List<OjsJobListener> copy = List.copyOf(listeners);
		this.routes = SingletonSupplier.of(() -> Routes.of(copy));
		this.info = info;
	}

	/**
	 * The listener to give the worker: {@link JobListener#NONE} without listeners.
	 * @param info the view of a job in its events (e.g. with its effective retry policy)
	 */
	static JobListener of(List<OjsJobListener> listeners, Function<Job, JobInfo> info) {
		return listeners.isEmpty() ? JobListener.NONE : new OjsJobListenerAdapter(listeners, info);
	}

	@Override
	public void started(Job job) {
		List<OjsJobListener> to = this.routes.get().started();
		if (!to.isEmpty()) {
			dispatch(to, new JobStartedEvent(this.info.apply(job), String.valueOf(job.lockedBy())), OjsJobListener::onStarted);
		}
	}

	@Override
	public void heartbeat(Job job, Instant visibleUntil) {
		List<OjsJobListener> to = this.routes.get().heartbeat();
		if (!to.isEmpty()) {
			dispatch(to, new JobHeartbeatEvent(this.info.apply(job), String.valueOf(job.lockedBy()), visibleUntil),
					OjsJobListener::onHeartbeat);
		}
	}

	@Override
	public void completed(Job job, Duration handlerDuration) {
		List<OjsJobListener> to = this.routes.get().completed();
		if (!to.isEmpty()) {
			dispatch(to, new JobCompletedEvent(this.info.apply(job), handlerDuration), OjsJobListener::onCompleted);
		}
	}

	@Override
	public void retrying(Job job, JobError error, Instant nextRetryAt, Duration delay, Duration handlerDuration) {
		List<OjsJobListener> to = this.routes.get().retrying();
		if (!to.isEmpty()) {
			dispatch(to, new JobRetryingEvent(this.info.apply(job), error, nextRetryAt, delay, handlerDuration),
					OjsJobListener::onRetrying);
		}
	}

	@Override
	public void discarded(Job job, JobError error, Duration handlerDuration) {
		List<OjsJobListener> to = this.routes.get().discarded();
		if (!to.isEmpty()) {
			dispatch(to, new JobDiscardedEvent(this.info.apply(job), error, handlerDuration), OjsJobListener::onDiscarded);
		}
	}

	@Override
	public void deadLettered(Job job, JobError error, Duration handlerDuration) {
		List<OjsJobListener> to = this.routes.get().deadLettered();
		if (!to.isEmpty()) {
			dispatch(to, new JobDeadLetteredEvent(this.info.apply(job), error, handlerDuration),
					OjsJobListener::onDeadLettered);
		}
	}

	private static <E extends OjsJobEvent> void dispatch(List<OjsJobListener> listeners, E event,
			BiConsumer<OjsJobListener, E> call) {
		for (OjsJobListener listener : listeners) {
			try {
				call.accept(listener, event);
			}
			catch (RuntimeException ex) {
				logger.warn("OjsJobListener " + listener + " failed on " + event, ex);
			}
		}
	}

	/** The listeners of each event type. */
	private record Routes(List<OjsJobListener> completed, List<OjsJobListener> retrying,
			List<OjsJobListener> discarded, List<OjsJobListener> deadLettered, List<OjsJobListener> started,
			List<OjsJobListener> heartbeat) {

		static Routes of(List<OjsJobListener> listeners) {
			return new Routes(supporting(listeners, JobCompletedEvent.class),
					supporting(listeners, JobRetryingEvent.class), supporting(listeners, JobDiscardedEvent.class),
					supporting(listeners, JobDeadLetteredEvent.class), supporting(listeners, JobStartedEvent.class),
					supporting(listeners, JobHeartbeatEvent.class));
		}

		private static List<OjsJobListener> supporting(List<OjsJobListener> listeners,
				Class<? extends OjsJobEvent> type) {
			return listeners.stream().filter((listener) -> listener.supportsEventType(type)).toList();
		}

	}

}

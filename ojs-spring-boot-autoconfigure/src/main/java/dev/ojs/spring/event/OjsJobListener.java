package dev.ojs.spring.event;

import java.lang.reflect.Method;
import java.util.Map;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Told of every stored outcome of an attempt: declare a bean of this type and override the
 * methods of the outcomes it needs. Each event is built once per outcome and handed to every
 * listener bean (in {@link org.springframework.core.annotation.Order order}) and to the
 * application's {@code @EventListener} methods; outcomes that nobody listens to build no
 * event at all.
 * <p>
 * Listeners are called like {@link OjsJobEvent} application events are published:
 * synchronously, after the outcome is stored, on the thread that wrote it (for handler
 * outcomes the node's single completer thread), so they must be fast; an exception a
 * listener throws is logged and does not affect the job or the other listeners.
 */
public interface OjsJobListener {

	/**
	 * An attempt starts. Unlike the outcome events, this one is given only to listener beans,
	 * never published as an application event.
	 */
	default void onStarted(JobStartedEvent event) {
	}

	/**
	 * A heartbeat extended an attempt's reservation. Given only to listener beans, never
	 * published as an application event.
	 */
	default void onHeartbeat(JobHeartbeatEvent event) {
	}

	/** An attempt completed the job. */
	default void onCompleted(JobCompletedEvent event) {
	}

	/** An attempt failed and the job will be retried. */
	default void onRetrying(JobRetryingEvent event) {
	}

	/** An attempt's failure discarded the job. */
	default void onDiscarded(JobDiscardedEvent event) {
	}

	/** An attempt's failure moved the job to the dead letter queue. */
	default void onDeadLettered(JobDeadLetteredEvent event) {
	}

	/**
	 * Whether this listener wants events of this type. Asked once per type, when the worker
	 * delivers its first outcome; events no listener wants are not built. By default, whether
	 * the listener overrides the type's method.
	 * @param eventType {@link JobCompletedEvent}, {@link JobRetryingEvent},
	 * {@link JobDiscardedEvent}, {@link JobDeadLetteredEvent}, {@link JobStartedEvent} or
	 * {@link JobHeartbeatEvent}
	 */
	default boolean supportsEventType(Class<? extends OjsJobEvent> eventType) {
		String name = methodNames().get(eventType);
		if (name == null) {
			return false;
		}
		Method method = ReflectionUtils.findMethod(ClassUtils.getUserClass(getClass()), name, eventType);
		return method != null && method.getDeclaringClass() != OjsJobListener.class;
	}

	private static Map<Class<? extends OjsJobEvent>, String> methodNames() {
		return Map.of(JobCompletedEvent.class, "onCompleted", JobRetryingEvent.class, "onRetrying",
				JobDiscardedEvent.class, "onDiscarded", JobDeadLetteredEvent.class, "onDeadLettered",
				JobStartedEvent.class, "onStarted", JobHeartbeatEvent.class, "onHeartbeat");
	}

}

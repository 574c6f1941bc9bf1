package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.context.event.GenericApplicationListenerAdapter;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.core.ResolvableType;

import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobEvent;
import dev.ojs.spring.event.OjsJobListener;

/**
 * Publishes the worker's outcomes as Spring application events ({@link JobCompletedEvent},
 * {@link JobRetryingEvent}, {@link JobDiscardedEvent}, {@link JobDeadLetteredEvent}),
 * synchronously, on the thread that wrote the outcome: for handler outcomes the node's single
 * completer thread (see {@link OjsJobEvent}). Synchronous event listeners must therefore be
 * fast; slow work belongs in {@code @Async} listeners. Exceptions thrown by event listeners
 * are logged, never propagated to the worker.
 * <p>
 * An event type is published only when the context (or an ancestor) has an application
 * listener for it ({@code @EventListener} methods, {@link ApplicationListener} beans), as
 * the context knows them when the worker delivers its first outcome.
 */
public class ApplicationEventJobListener implements OjsJobListener {

	private static final Log logger = LogFactory.getLog(ApplicationEventJobListener.class);

	private final ApplicationContext context;

	public ApplicationEventJobListener(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onCompleted(JobCompletedEvent event) {
		publish(event);
	}

	@Override
	public void onRetrying(JobRetryingEvent event) {
		publish(event);
	}

	@Override
	public void onDiscarded(JobDiscardedEvent event) {
		publish(event);
	}

	@Override
	public void onDeadLettered(JobDeadLetteredEvent event) {
		publish(event);
	}

	@Override
	public boolean supportsEventType(Class<? extends OjsJobEvent> eventType) {
		ResolvableType type = ResolvableType.forClass(eventType);
		for (ApplicationContext context = this.context; context != null; context = context.getParent()) {
			if (!(context instanceof AbstractApplicationContext abstractContext)) {
				return true;
			}
			for (ApplicationListener<?> listener : listeners(abstractContext)) {
				GenericApplicationListener generic = (listener instanceof GenericApplicationListener candidate)
						? candidate : new GenericApplicationListenerAdapter(listener);
				if (generic.supportsEventType(type)) {
					return true;
				}
			}
		}
		return false;
	}

	/** The context's listeners: those added to it and its singleton listener beans. */
	private static List<ApplicationListener<?>> listeners(AbstractApplicationContext context) {
		List<ApplicationListener<?>> listeners = new ArrayList<>(context.getApplicationListeners());
		if (context.isActive()) {
			for (Object bean : context.getBeansOfType(ApplicationListener.class, false, false).values()) {
				listeners.add((ApplicationListener<?>) bean);
			}
		}
		return listeners;
	}

	private void publish(OjsJobEvent event) {
		try {
			this.context.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("Listener of " + event + " failed", ex);
		}
	}

}

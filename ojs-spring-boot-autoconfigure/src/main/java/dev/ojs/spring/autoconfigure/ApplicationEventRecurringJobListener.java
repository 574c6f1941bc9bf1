package dev.ojs.spring.autoconfigure;

import org.springframework.context.ApplicationEventPublisher;

import dev.ojs.recurring.RecurringJobListener;
import dev.ojs.spring.event.RecurringJobSkippedEvent;
import dev.ojs.spring.event.RecurringJobTriggeredEvent;

/**
 * Publishes the evaluator's {@code cron.triggered} and {@code cron.skipped} as Spring
 * application events ({@link RecurringJobTriggeredEvent}, {@link RecurringJobSkippedEvent}), synchronously
 * on the evaluator's thread.
 */
public class ApplicationEventRecurringJobListener implements RecurringJobListener {

	private final ApplicationEventPublisher publisher;

	public ApplicationEventRecurringJobListener(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void triggered(Triggered event) {
		this.publisher.publishEvent(new RecurringJobTriggeredEvent(this, event));
	}

	@Override
	public void skipped(Skipped event) {
		this.publisher.publishEvent(new RecurringJobSkippedEvent(this, event));
	}

}

package dev.ojs.spring.autoconfigure;

import org.springframework.context.ApplicationEventPublisher;

import dev.ojs.cron.CronEventListener;
import dev.ojs.spring.CronSkippedEvent;
import dev.ojs.spring.CronTriggeredEvent;

/**
 * Publishes the evaluator's {@code cron.triggered} and {@code cron.skipped} as Spring
 * application events ({@link CronTriggeredEvent}, {@link CronSkippedEvent}), synchronously
 * on the evaluator's thread.
 */
public class ApplicationEventCronEventListener implements CronEventListener {

	private final ApplicationEventPublisher publisher;

	public ApplicationEventCronEventListener(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void triggered(Triggered event) {
		this.publisher.publishEvent(new CronTriggeredEvent(this, event));
	}

	@Override
	public void skipped(Skipped event) {
		this.publisher.publishEvent(new CronSkippedEvent(this, event));
	}

}

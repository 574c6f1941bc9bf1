package dev.ojs.spring.event;

import org.springframework.context.ApplicationEvent;

import dev.ojs.recurring.RecurringJobListener;

/**
 * {@code cron.triggered} (ojs-cron.md §9.1, CRON-29): a recurring job's occurrence enqueued a job.
 * Published by the node whose evaluator handled the occurrence.
 */
public class RecurringJobTriggeredEvent extends ApplicationEvent {

	private final RecurringJobListener.Triggered triggered;

	public RecurringJobTriggeredEvent(Object source, RecurringJobListener.Triggered triggered) {
		super(source);
		this.triggered = triggered;
	}

	/** The event's data. */
	public RecurringJobListener.Triggered getTriggered() {
		return this.triggered;
	}

}

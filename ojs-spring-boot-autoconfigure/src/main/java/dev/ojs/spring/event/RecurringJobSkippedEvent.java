package dev.ojs.spring.event;

import org.springframework.context.ApplicationEvent;

import dev.ojs.recurring.RecurringJobListener;

/**
 * {@code cron.skipped} (ojs-cron.md §9.2, CRON-30): a recurring job's occurrence enqueued no job
 * (overlap policy {@code skip}, or a local time a DST spring-forward removed). Published by
 * the node whose evaluator handled the occurrence.
 */
public class RecurringJobSkippedEvent extends ApplicationEvent {

	private final RecurringJobListener.Skipped skipped;

	public RecurringJobSkippedEvent(Object source, RecurringJobListener.Skipped skipped) {
		super(source);
		this.skipped = skipped;
	}

	/** The event's data. */
	public RecurringJobListener.Skipped getSkipped() {
		return this.skipped;
	}

}

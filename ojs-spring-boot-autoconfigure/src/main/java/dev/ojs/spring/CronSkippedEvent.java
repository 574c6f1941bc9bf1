package dev.ojs.spring;

import org.springframework.context.ApplicationEvent;

import dev.ojs.cron.CronEventListener;

/**
 * {@code cron.skipped} (ojs-cron.md §9.2, CRON-30): a recurring job's tick enqueued no job
 * (overlap policy {@code skip}, or a local time a DST spring-forward removed). Published by
 * the node whose evaluator handled the tick.
 */
public class CronSkippedEvent extends ApplicationEvent {

	private final CronEventListener.Skipped skipped;

	public CronSkippedEvent(Object source, CronEventListener.Skipped skipped) {
		super(source);
		this.skipped = skipped;
	}

	/** The event's data. */
	public CronEventListener.Skipped getSkipped() {
		return this.skipped;
	}

}

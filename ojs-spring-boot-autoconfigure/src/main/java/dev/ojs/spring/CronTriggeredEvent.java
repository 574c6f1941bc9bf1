package dev.ojs.spring;

import org.springframework.context.ApplicationEvent;

import dev.ojs.cron.CronEventListener;

/**
 * {@code cron.triggered} (ojs-cron.md §9.1, CRON-29): a recurring job's tick enqueued a job.
 * Published by the node whose evaluator handled the tick.
 */
public class CronTriggeredEvent extends ApplicationEvent {

	private final CronEventListener.Triggered triggered;

	public CronTriggeredEvent(Object source, CronEventListener.Triggered triggered) {
		super(source);
		this.triggered = triggered;
	}

	/** The event's data. */
	public CronEventListener.Triggered getTriggered() {
		return this.triggered;
	}

}

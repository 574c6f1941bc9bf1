package dev.ojs.spring.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.ojs.recurring.RecurringJobListener;

/**
 * Micrometer meters of recurring jobs, from this node's evaluator: {@value #TRIGGERED} and
 * {@value #SKIPPED} (tags {@code name}, and {@code reason} for skipped occurrences) and
 * {@value #LATENESS}, how long after its occurrence each job was enqueued.
 */
public class RecurringJobMetricsListener implements RecurringJobListener {

	/** Counter of jobs enqueued by occurrences. */
	public static final String TRIGGERED = "ojs.cron.triggered";

	/** Counter of occurrences that enqueued no job. */
	public static final String SKIPPED = "ojs.cron.skipped";

	/** Timer of the time from an occurrence to its job. */
	public static final String LATENESS = "ojs.cron.lateness";

	private final MeterRegistry registry;

	public RecurringJobMetricsListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void triggered(Triggered event) {
		Tags tags = Tags.of("name", event.cronName());
		Counter.builder(TRIGGERED).description("Jobs enqueued by recurring job occurrences").tags(tags)
			.register(this.registry).increment();
		Duration late = Duration.between(event.scheduledTime(), event.actualTime());
		Timer.builder(LATENESS).description("Time from a recurring job's occurrence to its job").tags(tags)
			.register(this.registry).record(late.isNegative() ? Duration.ZERO : late);
	}

	@Override
	public void skipped(Skipped event) {
		Counter.builder(SKIPPED).description("Recurring job occurrences that enqueued no job")
			.tags("name", event.cronName(), "reason", event.reason())
			.register(this.registry).increment();
	}

}

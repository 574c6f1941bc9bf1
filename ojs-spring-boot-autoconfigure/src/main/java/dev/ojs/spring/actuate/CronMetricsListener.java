package dev.ojs.spring.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.ojs.cron.CronEventListener;

/**
 * Micrometer meters of recurring jobs, from this node's evaluator: {@value #TRIGGERED} and
 * {@value #SKIPPED} (tags {@code name}, and {@code reason} for skipped ticks) and
 * {@value #LATENESS}, how long after its tick each job was enqueued.
 */
public class CronMetricsListener implements CronEventListener {

	/** Counter of jobs enqueued by ticks. */
	public static final String TRIGGERED = "ojs.cron.triggered";

	/** Counter of ticks that enqueued no job. */
	public static final String SKIPPED = "ojs.cron.skipped";

	/** Timer of the time from a tick to its job. */
	public static final String LATENESS = "ojs.cron.lateness";

	private final MeterRegistry registry;

	public CronMetricsListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void triggered(Triggered event) {
		Tags tags = Tags.of("name", event.cronName());
		Counter.builder(TRIGGERED).description("Jobs enqueued by recurring job ticks").tags(tags)
			.register(this.registry).increment();
		Duration late = Duration.between(event.scheduledTime(), event.actualTime());
		Timer.builder(LATENESS).description("Time from a recurring job's tick to its job").tags(tags)
			.register(this.registry).record(late.isNegative() ? Duration.ZERO : late);
	}

	@Override
	public void skipped(Skipped event) {
		Counter.builder(SKIPPED).description("Recurring job ticks that enqueued no job")
			.tags("name", event.cronName(), "reason", event.reason())
			.register(this.registry).increment();
	}

}

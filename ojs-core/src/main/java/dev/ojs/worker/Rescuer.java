package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.AttemptFailure;

/**
 * Turns expired reservations, of any node, into failed attempts of type
 * {@value FailurePlanner#VISIBILITY_TIMEOUT} (spec §9.2, RET-12), retried or discarded per
 * the job's policy, or of type {@value FailurePlanner#TIMEOUT} when the reservation ended at the
 * attempt's execution timeout: every {@link #MAX_INTERVAL} (sooner for a shorter visibility
 * timeout), so an expired reservation is noticed within about a second, as expiry is
 * (decision 17), whatever visibility timeout a job or a fetch gave; up to
 * {@value #MAX_BATCHES} batches of {@value #BATCH} per run. A run reads one range of an
 * index of the active jobs' reservations, which is empty when nothing runs. Every node runs
 * one; the store records each expired attempt once.
 */
final class Rescuer {

	static final int BATCH = 100;

	static final int MAX_BATCHES = 10;

	/** Half a second between the end of a run and the next: at least one check a second. */
	static final Duration MAX_INTERVAL = Duration.ofMillis(500);

	private static final Log logger = LogFactory.getLog(Rescuer.class);

	private final WorkerStore store;

	private final FailurePlanner planner;

	private final OutcomeEvents events;

	private final BiConsumer<String, Instant> retryDue;

	private final BooleanSupplier running;

	private final PeriodicTask task;

	/**
	 * @param retryDue told the queue and due time of each retry written
	 * @param running whether to go on after a full batch
	 */
	Rescuer(WorkerStore store, String nodeId, FailurePlanner planner, OutcomeEvents events,
			BiConsumer<String, Instant> retryDue, BooleanSupplier running, Duration shortestVisibility) {
		this.store = store;
		this.planner = planner;
		this.events = events;
		this.retryDue = retryDue;
		this.running = running;
		Duration interval = Durations.atLeast(Durations.MIN_INTERVAL,
				Durations.atMost(MAX_INTERVAL, shortestVisibility.dividedBy(4)));
		this.task = new PeriodicTask("ojs-rescuer-" + nodeId, this::rescue, interval);
	}

	void start() {
		this.task.start();
	}

	void stop(Duration timeout) {
		this.task.stop(timeout);
	}

	/** One run: expired reservations in batches until none is left or the run's limit. */
	void rescue() {
		List<AttemptFailure> rescued;
		int batches = 0;
		do {
			Map<String, FailurePlanner.Plan> plans = new HashMap<>();
			rescued = this.store.reapExpired(BATCH, (job) -> {
				FailurePlanner.Plan plan = this.planner.planTimeout(job, this.store.now());
				plans.put(job.id(), plan);
				return plan.attemptFailure();
			});
			for (AttemptFailure failure : rescued) {
				logger.info("OJS rescued job " + failure.job().id() + " attempt " + failure.job().attempt() + " of "
						+ failure.job().lockedBy() + ": reservation expired");
				this.events.failed(plans.get(failure.job().id()), Duration.ZERO);
				if (failure.nextRetryAt() != null) {
					this.retryDue.accept(failure.job().queue(), failure.nextRetryAt());
				}
			}
		}
		while (rescued.size() == BATCH && this.running.getAsBoolean() && ++batches < MAX_BATCHES);
	}

}

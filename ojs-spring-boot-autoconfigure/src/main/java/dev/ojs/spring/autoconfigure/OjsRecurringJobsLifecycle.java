package dev.ojs.spring.autoconfigure;

import java.time.Duration;

import org.springframework.context.SmartLifecycle;

import dev.ojs.recurring.RecurringJobEvaluator;
import dev.ojs.spring.OjsWorker;

/**
 * Starts the recurring-job evaluator once the context is refreshed and stops it (giving its
 * lease up, so another node takes over at once) when the context closes, before the worker.
 */
public class OjsRecurringJobsLifecycle implements SmartLifecycle {

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private final RecurringJobEvaluator evaluator;

	private volatile boolean running;

	public OjsRecurringJobsLifecycle(RecurringJobEvaluator evaluator) {
		this.evaluator = evaluator;
	}

	@Override
	public void start() {
		if (!this.running) {
			this.evaluator.start();
			this.running = true;
		}
	}

	@Override
	public void stop() {
		if (this.running) {
			this.running = false;
			this.evaluator.stop(STOP_TIMEOUT);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return OjsWorker.PHASE;
	}

}

package dev.ojs.spring.autoconfigure;

import org.springframework.context.SmartLifecycle;

import dev.ojs.worker.Worker;

/**
 * Starts the {@link Worker} once the application context is refreshed and stops it, waiting
 * up to {@code ojs.worker.shutdown-grace-period} for running jobs, when the context closes.
 * Its phase is {@link #PHASE}: it starts after and stops before other lifecycle beans of
 * lower phases (such as the web server), and always before the {@code DataSource} is
 * destroyed. Stopping blocks the shutdown thread for the grace period at most, independent
 * of {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
public class OjsWorkerLifecycle implements SmartLifecycle {

	/** The phase: the last to start and the first to stop. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE;

	private final Worker worker;

	public OjsWorkerLifecycle(Worker worker) {
		this.worker = worker;
	}

	@Override
	public void start() {
		if (!this.worker.isRunning()) {
			this.worker.start();
		}
	}

	@Override
	public void stop() {
		if (this.worker.isRunning()) {
			this.worker.stop();
		}
	}

	@Override
	public boolean isRunning() {
		return this.worker.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}

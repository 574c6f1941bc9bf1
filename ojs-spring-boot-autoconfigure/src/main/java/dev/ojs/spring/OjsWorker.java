package dev.ojs.spring;

import org.springframework.context.SmartLifecycle;
import org.springframework.util.Assert;

import dev.ojs.worker.Worker;
import dev.ojs.worker.WorkerStatus;

/**
 * This node's job worker: inject it to start claiming jobs later, for example after a cache
 * warm-up with {@code ojs.worker.auto-startup=false}, or to stop and start it again.
 * <p>
 * {@link #stop()} is graceful (ojs-graceful-shutdown.md §5): the worker stops claiming, lets
 * running jobs finish within {@code ojs.worker.shutdown-grace-period}, records those still
 * running as failed attempts of type {@code shutdown} and writes every outcome; it blocks
 * until then, also when the context closes (independently of
 * {@code spring.lifecycle.timeout-per-shutdown-phase}). Its phase is {@link #PHASE}: it
 * starts after and stops before the lifecycle beans of lower phases (such as the web
 * server), and always before the {@code DataSource} is destroyed.
 */
public final class OjsWorker implements SmartLifecycle {

	/** The phase: the last to start and the first to stop. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE;

	private final Worker worker;

	private final boolean autoStartup;

	/**
	 * Creates the lifecycle of the given worker.
	 * @param worker the engine's worker
	 * @param autoStartup whether the worker starts with the application context
	 */
	public OjsWorker(Worker worker, boolean autoStartup) {
		Assert.notNull(worker, "'worker' must not be null");
		this.worker = worker;
		this.autoStartup = autoStartup;
	}

	/** Starts claiming jobs; does nothing when the worker runs already. */
	@Override
	public void start() {
		this.worker.start();
	}

	/**
	 * Stops gracefully (see the class description), blocking up to the shutdown grace
	 * period plus the time to write what is pending; does nothing when the worker is not
	 * running.
	 */
	@Override
	public void stop() {
		this.worker.stop();
	}

	/** Stops as {@link #stop()} does, on the calling thread, then runs the callback. */
	@Override
	public void stop(Runnable callback) {
		try {
			stop();
		}
		finally {
			callback.run();
		}
	}

	/** Whether the worker is claiming jobs. */
	@Override
	public boolean isRunning() {
		return this.worker.isRunning();
	}

	/** Whether the worker starts with the application context ({@code ojs.worker.auto-startup}). */
	@Override
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/** This node's reservation owner id. */
	public String nodeId() {
		return this.worker.nodeId();
	}

	/** What the worker is doing now: whether it runs, its queues and running jobs. */
	public WorkerStatus status() {
		return this.worker.status();
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A task run at a fixed delay on a non-daemon thread of its own, started at a random point
 * of its first interval so nodes do not run it in step (or {@link #onTheClock on the clock}).
 * A run that throws is logged and the next one runs as planned.
 */
public final class PeriodicTask {

	private static final Log logger = LogFactory.getLog(PeriodicTask.class);

	private final String name;

	private final Runnable task;

	private final long intervalMillis;

	private final ScheduledThreadPoolExecutor scheduler;

	private volatile @Nullable Thread thread;

	/** Runs at a fixed rate, in step with the wall clock, instead of after a random start and fixed delays. */
	private final boolean onTheClock;

	public PeriodicTask(String threadName, Runnable task, Duration interval) {
		this(threadName, task, interval, false);
	}

	private PeriodicTask(String threadName, Runnable task, Duration interval, boolean onTheClock) {
		this.onTheClock = onTheClock;
		this.name = threadName;
		this.task = task;
		this.intervalMillis = Math.max(1, interval.toMillis());
		this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, threadName);
			this.thread = thread;
			return thread;
		});
	}

	/**
	 * A task run at a fixed rate, each run {@value #CLOCK_OFFSET_MILLIS} ms after a multiple of
	 * {@code interval} on the wall clock (after each whole second for a one-second interval):
	 * for work due at such instants, which a drifting fixed delay would reach later and later.
	 */
	public static PeriodicTask onTheClock(String threadName, Runnable task, Duration interval) {
		return new PeriodicTask(threadName, task, interval, true);
	}

	/** How long after its instant on the wall clock a {@link #onTheClock} run starts. */
	static final long CLOCK_OFFSET_MILLIS = 10;

	public void start() {
		if (this.onTheClock) {
			long sinceStep = System.currentTimeMillis() % this.intervalMillis;
			long delay = (this.intervalMillis - sinceStep + CLOCK_OFFSET_MILLIS) % this.intervalMillis;
			this.scheduler.scheduleAtFixedRate(this::runOnce, delay, this.intervalMillis, TimeUnit.MILLISECONDS);
			return;
		}
		this.scheduler.scheduleWithFixedDelay(this::runOnce, ThreadLocalRandom.current().nextLong(this.intervalMillis),
				this.intervalMillis, TimeUnit.MILLISECONDS);
	}

	private void runOnce() {
		try {
			this.task.run();
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("OJS " + this.name + " failed, retrying in " + this.intervalMillis + " ms: " + ex);
		}
	}

	/** Interrupts a run in progress and waits for the thread to end, up to {@code timeout}. */
	public void stop(Duration timeout) {
		this.scheduler.shutdownNow();
		Thread running = this.thread;
		if (running == null) {
			return;
		}
		try {
			running.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		if (running.isAlive()) {
			logger.warn("OJS " + this.name + " still running after " + timeout);
		}
	}

}

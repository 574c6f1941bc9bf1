package dev.ojs.bench.scenario;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.OjsJobListener;

/**
 * What the workflow scenario's handlers and the worker report: how often a batch callback
 * ran and when it first started, when each chain step started, and when the last job that is
 * not a callback completed (all {@link System#nanoTime()}).
 */
public final class WorkflowProbe implements OjsJobListener {

	/** Most chain steps whose start is recorded. */
	static final int MAX_STEPS = 100_000;

	private final AtomicLong callbacks = new AtomicLong();

	private final AtomicLong firstCallbackNanos = new AtomicLong();

	private final AtomicLong lastStepCompletedNanos = new AtomicLong();

	private final AtomicLongArray stepStarts = new AtomicLongArray(MAX_STEPS);

	/** Called by the callback handler as it starts. */
	void callback() {
		long now = System.nanoTime();
		if (this.callbacks.getAndIncrement() == 0) {
			this.firstCallbackNanos.set(now);
		}
	}

	/** Called by a chain step's handler as it starts. */
	void stepStarted(int index) {
		this.stepStarts.set(index, System.nanoTime());
	}

	@Override
	public void onCompleted(JobCompletedEvent event) {
		if (!WorkflowJobs.CALLBACK.equals(event.getType())) {
			this.lastStepCompletedNanos.accumulateAndGet(System.nanoTime(), Math::max);
		}
	}

	/** Executions of the callback handler so far. */
	public long callbacks() {
		return this.callbacks.get();
	}

	/** When the callback handler first started; 0 before. */
	long firstCallbackNanos() {
		return this.firstCallbackNanos.get();
	}

	/** When the last job other than a callback completed; 0 before. */
	long lastStepCompletedNanos() {
		return this.lastStepCompletedNanos.get();
	}

	/** When chain step {@code index} started; 0 before. */
	long stepStart(int index) {
		return this.stepStarts.get(index);
	}

}

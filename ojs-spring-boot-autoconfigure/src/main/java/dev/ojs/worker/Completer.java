package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Job;

/**
 * Writes attempt outcomes in batches on its own thread, so handlers and the next claim never
 * wait for them: whatever has queued up while one batch was being written becomes the next
 * batch (up to {@value #MAX_BATCH}), i.e. one statement for all completions and one for all
 * failures. A batch that cannot be written (database down) is retried with backoff, never
 * dropped; if it stays unwritten past the reservation, the reaper turns the attempt into a
 * failure, as spec §9.2 says for an unacknowledged job. Writes rejected by their guard
 * (the reservation was reaped meanwhile) are logged and not reported to the listener.
 */
final class Completer {

	static final int MAX_BATCH = 1000;

	private static final Log logger = LogFactory.getLog(Completer.class);

	private static final long MIN_BACKOFF_MILLIS = 50;

	private static final long MAX_BACKOFF_MILLIS = 2000;

	/** A finished attempt waiting to be written. */
	record Outcome(Execution execution, Duration handlerDuration, FailurePlanner.Plan failure) {

		Job job() {
			return this.execution.job();
		}

	}

	private final JdbcJobStore store;

	private final boolean deleteCompleted;

	private final Listeners listeners;

	private final BiConsumer<Outcome, Boolean> written;

	private final LinkedBlockingQueue<Outcome> queue = new LinkedBlockingQueue<>();

	private final Thread thread;

	private volatile boolean running = true;

	/**
	 * @param written called for every outcome once it is written ({@code true}) or rejected
	 * ({@code false}); either way it no longer needs heartbeats
	 */
	Completer(JdbcJobStore store, boolean deleteCompleted, Listeners listeners, BiConsumer<Outcome, Boolean> written,
			String nodeId) {
		this.store = store;
		this.deleteCompleted = deleteCompleted;
		this.listeners = listeners;
		this.written = written;
		this.thread = new Thread(this::run, "ojs-completer-" + nodeId);
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	void submit(Outcome outcome) {
		this.queue.add(outcome);
	}

	int pending() {
		return this.queue.size();
	}

	/** Writes what is queued, retrying until {@code timeout}, then stops the thread. */
	void stop(Duration timeout) {
		this.running = false;
		try {
			this.thread.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.thread.isAlive()) {
			this.thread.interrupt();
			logger.warn("OJS completer stopped with " + this.queue.size()
					+ " outcomes unwritten; the reaper will retry those attempts after their visibility timeout");
		}
	}

	private void run() {
		List<Outcome> drained = new ArrayList<>();
		// what is not yet written; after an error only the part still unwritten is retried
		List<Outcome> completions = new ArrayList<>();
		List<Outcome> failures = new ArrayList<>();
		long backoff = MIN_BACKOFF_MILLIS;
		while (this.running || !this.queue.isEmpty() || !completions.isEmpty() || !failures.isEmpty()) {
			try {
				if (completions.isEmpty() && failures.isEmpty()) {
					Outcome first = this.queue.poll(100, TimeUnit.MILLISECONDS);
					if (first == null) {
						continue;
					}
					drained.add(first);
					this.queue.drainTo(drained, MAX_BATCH - 1);
					for (Outcome outcome : drained) {
						((outcome.failure() != null) ? failures : completions).add(outcome);
					}
					drained.clear();
				}
				if (!completions.isEmpty()) {
					report(completions,
							this.store.complete(completions.stream().map(Outcome::job).toList(), this.deleteCompleted));
					completions.clear();
				}
				if (!failures.isEmpty()) {
					report(failures, this.store.fail(failures.stream().map((outcome) -> outcome.failure().failure()).toList()));
					failures.clear();
				}
				backoff = MIN_BACKOFF_MILLIS;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				logger.warn("OJS could not write " + (completions.size() + failures.size())
						+ " attempt outcomes, retrying in " + backoff + " ms: " + ex);
				try {
					Thread.sleep(backoff);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					return;
				}
				backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
			}
		}
	}

	private void report(List<Outcome> outcomes, Set<String> written) {
		for (Outcome outcome : outcomes) {
			boolean accepted = written.contains(outcome.job().id());
			this.written.accept(outcome, accepted);
			if (!accepted) {
				logger.info("OJS rejected the late outcome of job " + outcome.job().id() + " attempt "
						+ outcome.job().attempt() + ": its reservation was reaped");
				continue;
			}
			if (outcome.failure() == null) {
				this.listeners.completed(outcome.job(), outcome.handlerDuration());
			}
			else {
				this.listeners.failed(outcome.failure(), outcome.handlerDuration());
			}
		}
	}

}

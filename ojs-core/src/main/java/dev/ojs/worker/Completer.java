package dev.ojs.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * Writes attempt outcomes in batches on its own thread, so handlers and the next claim never
 * wait for them: what queues up while one batch is written becomes the next (one statement
 * for its completions, one for its failures), then the listener is told. A transient error
 * retries the batch with backoff, never drops it; any other error writes the batch row by
 * row, and a row that still fails is dropped: its reservation expires and the rescuer
 * records the attempt as failed (spec §9.2).
 */
final class Completer {

	static final int MAX_BATCH = 1000;

	private static final Log logger = LogFactory.getLog(Completer.class);

	private static final long MIN_BACKOFF_MILLIS = 50;

	private static final long MAX_BACKOFF_MILLIS = 2000;

	/**
	 * A finished attempt, or one abandoned at shutdown, waiting to be written.
	 * @param plan the failure to write, or {@code null} for a completion
	 */
	record Outcome(LocalAttempt attempt, Duration handlerDuration, FailurePlanner.@Nullable Plan plan) {

		Job job() {
			return this.attempt.job();
		}

	}

	private final WorkerStore store;

	private final boolean deleteCompleted;

	private final OutcomeEvents events;

	private final Refills refills;

	private final BiConsumer<Outcome, Boolean> written;

	private final LinkedBlockingQueue<Outcome> queue = new LinkedBlockingQueue<>();

	private final Thread thread;

	private volatile boolean running = true;

	/** Tells the listener that an attempt starts. */
	void started(Job job) {
		this.events.started(job);
	}

	/**
	 * @param written called for every outcome once it is written ({@code true}) or rejected
	 * ({@code false}); either way it no longer needs heartbeats
	 */
	Completer(WorkerStore store, boolean deleteCompleted, OutcomeEvents events, BiConsumer<Outcome, Boolean> written,
			String nodeId) {
		this(store, deleteCompleted, events, written, nodeId, new Refills(store, Map::of));
	}

	/** @param refills takes the slots the completions free for the next jobs */
	Completer(WorkerStore store, boolean deleteCompleted, OutcomeEvents events, BiConsumer<Outcome, Boolean> written,
			String nodeId, Refills refills) {
		this.store = store;
		this.refills = refills;
		this.deleteCompleted = deleteCompleted;
		this.events = events;
		this.written = written;
		this.thread = new Thread(this::run, "ojs-completer-" + nodeId);
	}

	void start() {
		this.thread.start();
	}

	void submit(Outcome outcome) {
		this.queue.add(outcome);
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
					+ " outcomes unwritten; the rescuer records those attempts after their visibility timeout");
		}
	}

	private void run() {
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
					add(first, completions, failures);
				}
				// also while a batch is being retried: what arrived meanwhile joins it
				take(completions, failures);
				boolean written = write(completions, this::complete);
				written &= write(failures,
						(outcomes) -> this.store.fail(outcomes.stream().map((outcome) -> outcome.plan().attemptFailure()).toList()));
				if (written) {
					backoff = MIN_BACKOFF_MILLIS;
					continue;
				}
				Thread.sleep(backoff);
				backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				logger.error("OJS completer failed, continuing", ex);
			}
		}
	}

	/**
	 * Writes completions (with their results when one of them has one) and, in their
	 * transaction, claims the next jobs for the slots they free ({@link Refills}).
	 */
	private Set<String> complete(List<Outcome> outcomes) {
		List<Job> jobs = outcomes.stream().map(Outcome::job).toList();
		List<WorkerStore.Refill> refills = this.refills.take(outcomes);
		WorkerStore.Completed completed = null;
		try {
			completed = this.store.complete(jobs, results(outcomes), this.deleteCompleted, refills);
		}
		finally {
			this.refills.claimed(refills, (completed != null) ? completed.claimed() : List.of());
		}
		return completed.written();
	}

	/** The results of these completions by job id: none, and no statement more, for jobs without one. */
	private static Map<String, String> results(List<Outcome> completions) {
		Map<String, String> results = null;
		for (Outcome outcome : completions) {
			String result = outcome.attempt().resultJson();
			if (result != null) {
				if (results == null) {
					results = new HashMap<>();
				}
				results.put(outcome.job().id(), result);
			}
		}
		return (results != null) ? results : Map.of();
	}

	private void take(List<Outcome> completions, List<Outcome> failures) {
		List<Outcome> drained = new ArrayList<>();
		this.queue.drainTo(drained, Math.max(0, MAX_BATCH - completions.size() - failures.size()));
		drained.forEach((outcome) -> add(outcome, completions, failures));
	}

	private static void add(Outcome outcome, List<Outcome> completions, List<Outcome> failures) {
		((outcome.plan() != null) ? failures : completions).add(outcome);
	}

	/**
	 * Writes {@code outcomes}, removing each once written or dropped.
	 * @return {@code false} when a transient error left some unwritten (retry after a backoff)
	 */
	private boolean write(List<Outcome> outcomes, Function<List<Outcome>, Set<String>> writer) {
		if (outcomes.isEmpty()) {
			return true;
		}
		try {
			Set<String> written = writer.apply(outcomes);
			report(outcomes, written);
			outcomes.clear();
			return true;
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			if (this.store.isTransient(ex)) {
				logger.warn("OJS could not write " + outcomes.size() + " attempt outcomes, retrying: " + ex);
				return false;
			}
			if (outcomes.size() == 1) {
				drop(outcomes.remove(0), ex);
				return true;
			}
			logger.warn("OJS could not write a batch of " + outcomes.size()
					+ " attempt outcomes, writing them one by one: " + ex);
		}
		for (Iterator<Outcome> iterator = outcomes.iterator(); iterator.hasNext();) {
			Outcome outcome = iterator.next();
			try {
				report(List.of(outcome), writer.apply(List.of(outcome)));
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				if (this.store.isTransient(ex)) {
					logger.warn("OJS could not write the outcome of job " + outcome.job().id() + " attempt "
							+ outcome.job().attempt() + " (" + outcomes.size() + " left to write), retrying: " + ex);
					return false;
				}
				drop(outcome, ex);
			}
			iterator.remove();
		}
		return true;
	}

	private void drop(Outcome outcome, Throwable failure) {
		logger.error("OJS dropped the outcome of job " + outcome.job().id() + " attempt " + outcome.job().attempt()
				+ ", which cannot be written; its reservation expires and the rescuer records the attempt as failed",
				failure);
		notifyWritten(outcome, false);
	}

	/** Tells the worker and the listener; neither may stop the completer. */
	private void report(List<Outcome> outcomes, Set<String> written) {
		// the store reports ids: when a job's stale attempt and its next attempt share a
		// batch, only the newest attempt can have been written; as many ids as outcomes
		// (written ones among them) means every outcome was written
		boolean all = written.size() == outcomes.size();
		Map<String, Integer> newest = (written.size() < outcomes.size()) ? newestAttempts(outcomes) : null;
		for (Outcome outcome : outcomes) {
			boolean accepted = all || (written.contains(outcome.job().id())
					&& (newest == null || newest.get(outcome.job().id()) == outcome.job().attempt()));
			notifyWritten(outcome, accepted);
			if (!accepted) {
				logger.info("OJS rejected the late outcome of job " + outcome.job().id() + " attempt "
						+ outcome.job().attempt() + ": its reservation was reaped, or the job was cancelled");
				continue;
			}
			if (outcome.plan() == null) {
				this.events.completed(outcome.job(), outcome.handlerDuration());
			}
			else {
				this.events.failed(outcome.plan(), outcome.handlerDuration());
			}
		}
	}

	private static Map<String, Integer> newestAttempts(List<Outcome> outcomes) {
		Map<String, Integer> newest = new HashMap<>();
		outcomes.forEach((outcome) -> newest.merge(outcome.job().id(), outcome.job().attempt(), Math::max));
		return newest;
	}

	private void notifyWritten(Outcome outcome, boolean accepted) {
		try {
			this.written.accept(outcome, accepted);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.error("OJS could not finish the outcome of job " + outcome.job().id(), ex);
		}
	}

}

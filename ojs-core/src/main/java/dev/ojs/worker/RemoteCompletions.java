package dev.ojs.worker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * The completions external workers report, written in groups (group commit): a completion
 * waits while the group before it is written, and what queued meanwhile is written next by
 * one of its callers, in one transaction with one statistics update, the batched outcome
 * write of the in-process {@link Completer}. Each caller is answered after its group commits,
 * with its own outcome: whether its guarded write took (a lost reservation or a cancelled job
 * does not), or the error that stopped it. A lone completion is written at once, as before.
 */
final class RemoteCompletions {

	private final WorkerStore store;

	private final boolean deleteCompleted;

	private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();

	/** Held by the caller writing a group. */
	private final ReentrantLock writing = new ReentrantLock();

	RemoteCompletions(WorkerStore store, boolean deleteCompleted) {
		this.store = store;
		this.deleteCompleted = deleteCompleted;
	}

	/**
	 * Writes the completion of a claimed job, with its result (JSON) or none, in the next group.
	 * @return whether it was written (the reservation still held)
	 */
	boolean complete(Job job, @Nullable String resultJson) {
		return !completeAll(List.of(job), (resultJson != null) ? Map.of(job.id(), resultJson) : Map.of()).isEmpty();
	}

	/**
	 * Writes the completions of claimed jobs (of distinct ids), with the results of those that
	 * have one (JSON by job id), in the next group; the error of a write that failed is thrown
	 * once all are answered.
	 * @return the ids written (reservations still held)
	 */
	Set<String> completeAll(List<Job> jobs, Map<String, String> results) {
		List<Pending> pendings = new ArrayList<>(jobs.size());
		jobs.forEach((job) -> pendings.add(new Pending(job, results.get(job.id()), new CompletableFuture<>())));
		this.queue.addAll(pendings);
		Set<String> written = new HashSet<>();
		RuntimeException failure = null;
		for (Pending pending : pendings) {
			await(pending);
			try {
				if (pending.written().join()) {
					written.add(pending.job().id());
				}
			}
			catch (CompletionException ex) {
				failure = (failure != null) ? failure
						: (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
			}
		}
		if (failure != null) {
			throw failure;
		}
		return written;
	}

	/** Until {@code pending} is answered, writes groups whenever no other caller does. */
	private void await(Pending pending) {
		while (!pending.written().isDone()) {
			this.writing.lock();
			try {
				if (!pending.written().isDone()) {
					writeQueued();
				}
			}
			finally {
				this.writing.unlock();
			}
		}
	}

	/** Writes what is queued; a second completion of the same job waits for the next group. */
	private void writeQueued() {
		List<Pending> group = new ArrayList<>();
		List<Pending> later = new ArrayList<>();
		Set<String> ids = new HashSet<>();
		Pending pending;
		while (group.size() < Completer.MAX_BATCH && (pending = this.queue.poll()) != null) {
			(ids.add(pending.job().id()) ? group : later).add(pending);
		}
		this.queue.addAll(later);
		try {
			answer(group, write(group));
		}
		catch (RuntimeException ex) {
			if (group.size() == 1) {
				group.get(0).written().completeExceptionally(ex);
				return;
			}
			// each alone, so that one bad row does not fail the others
			for (Pending one : group) {
				try {
					answer(List.of(one), write(List.of(one)));
				}
				catch (RuntimeException single) {
					one.written().completeExceptionally(single);
				}
			}
		}
		finally {
			// after a fatal error no caller may wait for a group that is gone
			group.forEach((one) -> one.written()
				.completeExceptionally(new IllegalStateException("Completion of job " + one.job().id() + " not written")));
		}
	}

	private Set<String> write(List<Pending> group) {
		List<Job> jobs = new ArrayList<>(group.size());
		Map<String, String> results = new HashMap<>();
		for (Pending pending : group) {
			jobs.add(pending.job());
			if (pending.resultJson() != null) {
				results.put(pending.job().id(), pending.resultJson());
			}
		}
		return results.isEmpty() ? this.store.complete(jobs, this.deleteCompleted)
				: this.store.complete(jobs, results, this.deleteCompleted);
	}

	private static void answer(List<Pending> group, Set<String> written) {
		group.forEach((pending) -> pending.written().complete(written.contains(pending.job().id())));
	}

	private record Pending(Job job, @Nullable String resultJson, CompletableFuture<Boolean> written) {

	}

}

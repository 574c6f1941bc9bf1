package dev.ojs.worker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;

/**
 * The completions external workers report, read and written in groups (group commit): a
 * completion waits while the group before it is written, and what queued meanwhile is taken
 * next by one of its callers, its jobs read in one query and the completions of those their
 * workers hold written in one transaction with one statistics update, the batched outcome
 * write of the in-process {@link Completer}. Each caller is answered after its group commits,
 * with its job as read and whether its guarded write took (a lost reservation or a cancelled
 * job does not), or the error that stopped it. A lone completion is read and written at once.
 */
final class RemoteCompletions {

	/**
	 * What became of a completion.
	 *
	 * @param job the job as read before the write, or {@code null} when there is none
	 * @param written whether its completion was written: the worker held it, and still did
	 */
	record Answer(@Nullable Job job, boolean written) {
	}

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
	 * Completes job {@code id} if the external worker ({@code workerId}, or any when
	 * {@code null}) holds it, with its result (JSON) or none, in the next group.
	 */
	Answer complete(String id, @Nullable String workerId, @Nullable String resultJson) {
		Map<String, @Nullable String> results = new HashMap<>();
		results.put(id, resultJson);
		return completeAll(results, workerId).get(id);
	}

	/**
	 * Completes the jobs of these ids that the worker holds, each with its result (JSON) or
	 * {@code null}, in the next group; the error of a read or write that failed is thrown once
	 * all are answered.
	 * @return the answer for each id, in the order given
	 */
	Map<String, Answer> completeAll(Map<String, @Nullable String> resultsById, @Nullable String workerId) {
		List<Pending> pendings = new ArrayList<>(resultsById.size());
		resultsById.forEach((id, result) -> pendings.add(new Pending(id, workerId, result, new CompletableFuture<>())));
		this.queue.addAll(pendings);
		Map<String, Answer> answers = new LinkedHashMap<>();
		RuntimeException failure = null;
		for (Pending pending : pendings) {
			await(pending);
			try {
				answers.put(pending.id(), pending.answer().join());
			}
			catch (CompletionException ex) {
				failure = (failure != null) ? failure
						: (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
			}
		}
		if (failure != null) {
			throw failure;
		}
		return answers;
	}

	/** Until {@code pending} is answered, writes groups whenever no other caller does. */
	private void await(Pending pending) {
		while (!pending.answer().isDone()) {
			this.writing.lock();
			try {
				if (!pending.answer().isDone()) {
					writeQueued();
				}
			}
			finally {
				this.writing.unlock();
			}
		}
	}

	/** Reads and writes what is queued; a second completion of the same job waits for the next group. */
	private void writeQueued() {
		List<Pending> group = new ArrayList<>();
		List<Pending> later = new ArrayList<>();
		Set<String> ids = new HashSet<>();
		Pending pending;
		while (group.size() < Completer.MAX_BATCH && (pending = this.queue.poll()) != null) {
			(ids.add(pending.key()) ? group : later).add(pending);
		}
		this.queue.addAll(later);
		try {
			Map<String, Job> found = new HashMap<>();
			this.store.findAll(List.copyOf(ids)).forEach((job) -> found.put(job.id(), job));
			List<Pending> held = group.stream()
				.filter((one) -> RemoteAttempts.holds(found.get(one.key()), one.workerId()))
				.toList();
			try {
				answer(group, found, write(held, found));
			}
			catch (RuntimeException ex) {
				if (held.size() == 1) {
					held.get(0).answer().completeExceptionally(ex);
				}
				else {
					// each alone, so that one bad row does not fail the others
					for (Pending one : held) {
						try {
							answer(List.of(one), found, write(List.of(one), found));
						}
						catch (RuntimeException single) {
							one.answer().completeExceptionally(single);
						}
					}
				}
				// those their workers do not hold: unwritten, whatever became of the others
				answer(group, found, Set.of());
			}
		}
		catch (RuntimeException ex) {
			// the read failed: every caller of the group sees why
			group.forEach((one) -> one.answer().completeExceptionally(ex));
		}
		finally {
			// after a fatal error no caller may wait for a group that is gone
			group.forEach((one) -> one.answer()
				.completeExceptionally(new IllegalStateException("Completion of job " + one.id() + " not written")));
		}
	}

	private Set<String> write(List<Pending> held, Map<String, Job> found) {
		if (held.isEmpty()) {
			return Set.of();
		}
		List<Job> jobs = new ArrayList<>(held.size());
		Map<String, String> results = new HashMap<>();
		for (Pending pending : held) {
			jobs.add(found.get(pending.key()));
			if (pending.resultJson() != null) {
				results.put(pending.key(), pending.resultJson());
			}
		}
		return results.isEmpty() ? this.store.complete(jobs, this.deleteCompleted)
				: this.store.complete(jobs, results, this.deleteCompleted);
	}

	/** Answers those of {@code group} not yet answered: written if in {@code written}. */
	private static void answer(List<Pending> group, Map<String, Job> found, Set<String> written) {
		group.forEach((pending) -> pending.answer()
			.complete(new Answer(found.get(pending.key()), written.contains(pending.key()))));
	}

	private record Pending(String id, @Nullable String workerId, @Nullable String resultJson,
			CompletableFuture<Answer> answer) {

		/** The job's id as stored: ids are lower case, a worker may send them in upper case. */
		String key() {
			return this.id.toLowerCase(Locale.ROOT);
		}

	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.JobError;

/**
 * Attempts run by workers outside this process (the OJS HTTP binding's fetch, ack, nack and
 * heartbeat), on the same engine as this node's handlers: the same batched claim, the same
 * reservation guard on every outcome, the same {@link FailurePlanner} (retry policy, error
 * history, {@code next_retry_at}) and the same job events. Their reservations expire into
 * failed attempts through the node's {@link Rescuer}, like any other.
 * <p>
 * An external worker's reservations are owned by {@link #owner(String)} of its worker id,
 * so they are never confused with a node's: an outcome reported for a job this node's
 * handlers run is refused.
 */
public final class RemoteAttempts {

	/** Prefix of the reservation owner of an external worker. */
	public static final String OWNER_PREFIX = "remote:";

	private final WorkerStore store;

	private final FailurePlanner planner;

	private final OutcomeEvents events;

	private final RemoteCompletions completions;

	private final BiConsumer<String, Instant> retryDue;

	RemoteAttempts(WorkerStore store, FailurePlanner planner, OutcomeEvents events, boolean deleteCompleted,
			BiConsumer<String, Instant> retryDue) {
		this.store = store;
		this.planner = planner;
		this.events = events;
		this.completions = new RemoteCompletions(store, deleteCompleted);
		this.retryDue = retryDue;
	}

	/** The reservation owner of an external worker. */
	public static String owner(String workerId) {
		return OWNER_PREFIX + workerId;
	}

	/**
	 * Claims up to {@code count} due jobs from {@code queues}, in the order given, skipping
	 * paused queues; of the given types, or of any type when {@code types} is empty.
	 */
	public List<Job> claim(String workerId, List<String> queues, Collection<String> types, Duration visibility,
			int count) {
		return claim(workerId, queues, types, visibility, true, count);
	}

	/**
	 * {@link #claim(String, List, Collection, Duration, int)}; unless {@code visibilityGiven}
	 * (the fetch named it), a job's own visibility timeout replaces {@code visibility}. A
	 * reservation never runs past the job's execution timeout.
	 */
	public List<Job> claim(String workerId, List<String> queues, Collection<String> types, Duration visibility,
			boolean visibilityGiven, int count) {
		Map<String, Duration> visibilityByType = new LinkedHashMap<>();
		if (types.isEmpty()) {
			visibilityByType.put(WorkerStore.ANY_TYPE, visibility);
		}
		else {
			types.forEach((type) -> visibilityByType.put(type, visibility));
		}
		Set<String> paused = this.store.pausedQueues();
		List<Job> claimed = new ArrayList<>();
		for (String queue : queues) {
			if (claimed.size() >= count) {
				break;
			}
			if (!paused.contains(queue)) {
				claimed.addAll(this.store.claim(owner(workerId), queue, visibilityByType, count - claimed.size(),
						!visibilityGiven));
			}
		}
		claimed.forEach(this.events::started);
		return claimed;
	}

	/** The outcome of a reported attempt. */
	public sealed interface Outcome permits Written, Refused {

	}

	/**
	 * The attempt's outcome is stored.
	 * @param job the job as it was claimed
	 * @param state its new state
	 * @param at when it was written
	 * @param nextRetryAt the retry time when retryable
	 * @param deadLetter whether a discarded job became a dead letter
	 */
	public record Written(Job job, JobState state, Instant at, @Nullable Instant nextRetryAt,
			boolean deadLetter) implements Outcome {

	}

	/**
	 * The attempt's outcome was refused.
	 * @param job the job as stored, or {@code null} when there is none
	 * @param reason why
	 */
	public record Refused(@Nullable Job job, String reason) implements Outcome {

	}

	/** ACK: the attempt succeeded. */
	public Outcome complete(String id, @Nullable String workerId) {
		return complete(id, workerId, null);
	}

	/**
	 * ACK: the attempt succeeded with {@code resultJson} (JSON, stored with the job), or none;
	 * read and written in a group with concurrent acks ({@link RemoteCompletions}), answered
	 * once its group commits.
	 */
	public Outcome complete(String id, @Nullable String workerId, @Nullable String resultJson) {
		return outcome(id, workerId, this.completions.complete(id, workerId, resultJson), this.store.now());
	}

	/**
	 * ACK of many attempts in one call (the binding's batch-ack extension): read and written in
	 * one group, each checked and answered as by {@link #complete(String, String, String)}.
	 * @param resultsById the acked job ids, each with its result (JSON) or {@code null}
	 * @return the outcome of each id, in the order given
	 */
	public Map<String, Outcome> completeAll(Map<String, @Nullable String> resultsById, @Nullable String workerId) {
		Map<String, RemoteCompletions.Answer> answers = this.completions.completeAll(resultsById, workerId);
		Instant now = this.store.now();
		Map<String, Outcome> outcomes = new LinkedHashMap<>();
		answers.forEach((id, answer) -> outcomes.put(id, outcome(id, workerId, answer, now)));
		return outcomes;
	}

	/** The outcome of a completion as {@link RemoteCompletions} answered it. */
	private Outcome outcome(String id, @Nullable String workerId, RemoteCompletions.Answer answer, Instant now) {
		Job job = answer.job();
		if (!answer.written() || job == null) {
			// a held job whose write did not take changed meanwhile: read it again
			return (job != null && holds(job, workerId)) ? refused(id, workerId) : refused(id, job, workerId);
		}
		this.events.completed(job, ran(job, now));
		return new Written(job, JobState.COMPLETED, now, null, false);
	}

	/**
	 * FAIL: the attempt failed with {@code error}; retried or discarded per the job's policy,
	 * or, when not {@code retryable}, handled as a non-retryable error (spec §6.3).
	 */
	public Outcome fail(String id, @Nullable String workerId, JobError error, boolean retryable) {
		Optional<Job> held = held(id, workerId);
		if (held.isEmpty()) {
			return refused(id, workerId);
		}
		Job job = held.get();
		Instant now = this.store.now();
		FailurePlanner.Plan plan = retryable ? this.planner.plan(job, error, now)
				: this.planner.planNonRetryable(job, error, now);
		if (!this.store.fail(List.of(plan.attemptFailure())).contains(id)) {
			return refused(id, workerId);
		}
		this.events.failed(plan, ran(job, now));
		Instant nextRetryAt = plan.attemptFailure().nextRetryAt();
		if (nextRetryAt != null) {
			this.retryDue.accept(job.queue(), nextRetryAt);
		}
		return new Written(job, plan.attemptFailure().state(), now, nextRetryAt, plan.attemptFailure().deadLetter());
	}

	/**
	 * Requeue ({@code requeue: true} on a nack): the held job becomes available again at
	 * once, its attempt not counted and no error recorded, as for a job claimed by a node
	 * that stops before running it.
	 */
	public Outcome requeue(String id, @Nullable String workerId) {
		Optional<Job> held = held(id, workerId);
		if (held.isEmpty()) {
			return refused(id, workerId);
		}
		Job job = held.get();
		if (!this.store.release(List.of(job)).contains(id)) {
			return refused(id, workerId);
		}
		this.retryDue.accept(job.queue(), this.store.now());
		return new Written(job, JobState.AVAILABLE, this.store.now(), null, false);
	}

	/**
	 * BEAT: extends the reservations {@code workerId} holds on these jobs to now plus
	 * {@code visibility}.
	 * @return the ids extended
	 */
	public List<String> heartbeat(String workerId, List<String> ids, Duration visibility) {
		if (ids.isEmpty()) {
			return List.of();
		}
		Instant until = Timestamps.plus(this.store.now(), visibility);
		List<String> extended;
		if (this.store.heartbeat(owner(workerId), ids, until) == ids.size()) {
			extended = List.copyOf(ids);
		}
		else {
			extended = new ArrayList<>();
			for (String id : ids) {
				if (this.store.heartbeat(owner(workerId), List.of(id), until) > 0) {
					extended.add(id);
				}
			}
		}
		if (this.events.listening()) {
			this.store.findAll(extended).forEach((job) -> this.events.heartbeat(job, until));
		}
		return extended;
	}

	/** The job if an external worker (this one, when named) holds its reservation. */
	private Optional<Job> held(String id, @Nullable String workerId) {
		return this.store.find(id).filter((job) -> holds(job, workerId));
	}

	/** Whether an external worker (this one, when named) holds {@code job}'s reservation; {@code null} for none. */
	static boolean holds(@Nullable Job job, @Nullable String workerId) {
		return job != null && job.state() == JobState.ACTIVE && job.lockedBy() != null && job.lockedBy().startsWith(OWNER_PREFIX)
				&& (workerId == null || job.lockedBy().equals(owner(workerId)));
	}

	private Refused refused(String id, @Nullable String workerId) {
		return refused(id, this.store.find(id).orElse(null), workerId);
	}

	/** Why an outcome for {@code job} (as stored, or {@code null} for none) is refused. */
	private static Refused refused(String id, @Nullable Job job, @Nullable String workerId) {
		if (job == null) {
			return new Refused(null, "Job '" + id + "' not found.");
		}
		if (job.state() != JobState.ACTIVE) {
			return new Refused(job, "Job '" + id + "' is not active. Current state: '" + job.state().value() + "'.");
		}
		return new Refused(job, "Job '" + id + "' is reserved by another worker"
				+ ((workerId != null) ? " than '" + workerId + "'" : "") + ".");
	}

	private static Duration ran(Job job, Instant now) {
		return (job.startedAt() != null && job.startedAt().isBefore(now)) ? Duration.between(job.startedAt(), now)
				: Duration.ZERO;
	}

}

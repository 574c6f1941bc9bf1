package dev.ojs.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.retry.RetryPolicy;

/**
 * Stored test jobs: a fluent {@link Job} builder, for a job snapshot that no store has
 * written, or a copy of a stored one with some fields changed.
 */
public final class StoredJobs {

	private static final String ID = "0190f5f0-0000-7000-8000-000000000001";

	private final String id;

	private final String type;

	private String queue;

	private String args;

	private String meta;

	private final int priority;

	private JobState state;

	private int attempt;

	private final int maxAttempts;

	private final RetryPolicy policy;

	private List<ErrorEntry> errors;

	private final boolean deadLetter;

	private final String uniqueKey;

	private Instant scheduledAt;

	private Instant createdAt;

	private Instant enqueuedAt;

	private final Instant startedAt;

	private final Instant completedAt;

	private final Instant discardedAt;

	private String lockedBy;

	private final Instant lockedUntil;

	private String workflowId;

	private WorkflowPlace workflowPlace;

	private StoredJobs(Job job) {
		this.id = job.id();
		this.type = job.type();
		this.queue = job.queue();
		this.args = job.argsJson();
		this.meta = job.metaJson();
		this.priority = job.priority();
		this.state = job.state();
		this.attempt = job.attempt();
		this.maxAttempts = job.maxAttempts();
		this.policy = job.retryPolicy();
		this.errors = job.errors();
		this.deadLetter = job.deadLetter();
		this.uniqueKey = job.uniqueKey();
		this.scheduledAt = job.scheduledAt();
		this.createdAt = job.createdAt();
		this.enqueuedAt = job.enqueuedAt();
		this.startedAt = job.startedAt();
		this.completedAt = job.completedAt();
		this.discardedAt = job.discardedAt();
		this.lockedBy = job.lockedBy();
		this.lockedUntil = job.lockedUntil();
		this.workflowId = job.workflowId();
		this.workflowPlace = job.workflowPlace();
	}

	/**
	 * A job of {@code type} in its first attempt (of 3, the {@link RetryPolicy#DEFAULT
	 * default policy}), started now and held by {@code test-node} for a minute, on the
	 * {@code default} queue with no arguments, metadata or errors.
	 */
	public static StoredJobs job(String type) {
		Instant now = Instant.now();
		return new StoredJobs(new Job(ID, type, "default", "[]", "{}", 0, JobState.ACTIVE, 1, 3, RetryPolicy.DEFAULT,
				List.of(), false, null, now, now, now, now, null, null, "test-node", now.plus(Duration.ofMinutes(1))));
	}

	/** A copy of {@code job}, to change some of its fields. */
	public static StoredJobs from(Job job) {
		return new StoredJobs(job);
	}

	public StoredJobs queue(String queue) {
		this.queue = queue;
		return this;
	}

	public StoredJobs args(String args) {
		this.args = args;
		return this;
	}

	public StoredJobs meta(String meta) {
		this.meta = meta;
		return this;
	}

	public StoredJobs state(JobState state) {
		this.state = state;
		return this;
	}

	public StoredJobs attempt(int attempt) {
		this.attempt = attempt;
		return this;
	}

	/** The error history as given (a {@link dev.ojs.job.LazyErrorHistory} stays undecoded). */
	public StoredJobs errors(List<ErrorEntry> errors) {
		this.errors = errors;
		return this;
	}

	public StoredJobs scheduledAt(Instant scheduledAt) {
		this.scheduledAt = scheduledAt;
		return this;
	}

	public StoredJobs createdAt(Instant createdAt) {
		this.createdAt = createdAt;
		return this;
	}

	public StoredJobs enqueuedAt(Instant enqueuedAt) {
		this.enqueuedAt = enqueuedAt;
		return this;
	}

	public StoredJobs lockedBy(String lockedBy) {
		this.lockedBy = lockedBy;
		return this;
	}

	/** A job of the workflow with this id, at this place in it. */
	public StoredJobs workflow(String workflowId, WorkflowPlace place) {
		this.workflowId = workflowId;
		this.workflowPlace = place;
		return this;
	}

	public Job build() {
		return new Job(this.id, this.type, this.queue, this.args, this.meta, this.priority, this.state, this.attempt,
				this.maxAttempts, this.policy, this.errors, this.deadLetter, this.uniqueKey, this.scheduledAt,
				this.createdAt, this.enqueuedAt, this.startedAt, this.completedAt, this.discardedAt, this.lockedBy,
				this.lockedUntil, null, null, null, this.workflowId, this.workflowPlace, null, null);
	}

}

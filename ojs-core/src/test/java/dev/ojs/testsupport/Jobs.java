package dev.ojs.testsupport;

import java.time.Duration;
import java.time.Instant;

import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;

/**
 * Test jobs: a fluent {@link NewJob} builder.
 */
public final class Jobs {

	private String type;

	private String queue = "default";

	private int priority;

	private String args = "[]";

	private String meta = "{}";

	private @org.jspecify.annotations.Nullable RetryPolicy policy;

	private Instant runAt;

	private String uniqueKey;

	private dev.ojs.job.UniqueScope uniqueScope;

	private String id;

	private boolean pending;

	private Instant expiresAt;

	private java.time.Duration timeout;

	private java.time.Duration visibilityTimeout;

	private String concurrencyKey;

	private String sequenceKey;

	private Jobs(String type) {
		this.type = type;
	}

	public static Jobs job(String type) {
		return new Jobs(type);
	}

	/** A policy of {@code maxAttempts} with a constant tiny backoff and no jitter. */
	public static RetryPolicy quickRetries(int maxAttempts) {
		return RetryPolicy.builder()
			.maxAttempts(maxAttempts)
			.initialInterval(Duration.ofMillis(1))
			.backoffCoefficient(1.0)
			.maxInterval(Duration.ofMillis(1))
			.jitter(false)
			.build()
			.effective();
	}

	public Jobs queue(String queue) {
		this.queue = queue;
		return this;
	}

	public Jobs priority(int priority) {
		this.priority = priority;
		return this;
	}

	public Jobs args(String args) {
		this.args = args;
		return this;
	}

	public Jobs meta(String meta) {
		this.meta = meta;
		return this;
	}

	/** The job's own retry policy fields (its handler supplies the rest). */
	public Jobs policy(RetryPolicy policy) {
		this.policy = policy;
		return this;
	}

	public Jobs runAt(Instant runAt) {
		this.runAt = runAt;
		return this;
	}

	public Jobs uniqueScope(dev.ojs.job.UniqueScope uniqueScope) {
		this.uniqueScope = uniqueScope;
		return this;
	}

	public Jobs id(String id) {
		this.id = id;
		return this;
	}

	public Jobs uniqueKey(String uniqueKey) {
		this.uniqueKey = uniqueKey;
		return this;
	}

	public Jobs expiresAt(Instant expiresAt) {
		this.expiresAt = expiresAt;
		return this;
	}

	/** The job's own execution timeout. */
	public Jobs timeout(java.time.Duration timeout) {
		this.timeout = timeout;
		return this;
	}

	/** The job's own visibility timeout. */
	public Jobs visibilityTimeout(java.time.Duration visibilityTimeout) {
		this.visibilityTimeout = visibilityTimeout;
		return this;
	}

	/** Held: enqueued pending, runs once activated. */
	public Jobs pending() {
		this.pending = true;
		return this;
	}

	public Jobs concurrencyKey(String concurrencyKey) {
		this.concurrencyKey = concurrencyKey;
		return this;
	}

	public Jobs sequenceKey(String sequenceKey) {
		this.sequenceKey = sequenceKey;
		return this;
	}

	public NewJob build() {
		int maxAttempts = ((this.policy != null) ? this.policy : RetryPolicy.DEFAULT).effective().maxAttempts();
		return new NewJob(this.type, this.queue, this.priority, this.args, this.meta, this.policy, this.runAt,
				this.uniqueKey, maxAttempts, this.pending, this.expiresAt, this.id, this.uniqueScope, this.timeout,
				this.visibilityTimeout, this.concurrencyKey, this.sequenceKey);
	}

}

package dev.ojs.spring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;

/**
 * Per-enqueue options for {@link OjsTemplate}. Every option is optional: the queue and
 * priority default to the handler's {@link OjsJob @OjsJob} values (else {@code "default"}
 * and 0), and {@link Builder#retry(RetryPolicy) retry} is a partial policy merged over the
 * handler's and the application's defaults.
 */
public final class JobOptions {

	private static final JobOptions NONE = builder().build();

	private final @Nullable String queue;
	private final @Nullable Integer priority;
	private final @Nullable Duration delay;
	private final @Nullable Instant runAt;
	private final @Nullable RetryPolicy retry;
	private final @Nullable String retryJson;
	private final Map<String, Object> meta;
	private final @Nullable String uniqueKey;
	private final boolean pending;
	private final @Nullable Duration expiresIn;
	private final @Nullable Instant expiresAt;
	private final @Nullable String id;
	private final @Nullable Duration uniquePeriod;
	private final Set<JobState> uniqueStates;
	private final List<String> tags;
	private final @Nullable Duration timeout;
	private final @Nullable Duration visibilityTimeout;
	private final @Nullable String concurrencyKey;
	private final @Nullable String sequenceKey;

	/** {@link #retryJson} parsed, once parsed. */
	private @Nullable RetryPolicy parsedRetryJson;

	private JobOptions(Builder builder) {
		this.queue = builder.queue;
		this.priority = builder.priority;
		this.delay = builder.delay;
		this.runAt = builder.runAt;
		this.retry = builder.retry;
		this.retryJson = builder.retryJson;
		this.meta = Collections.unmodifiableMap(new LinkedHashMap<>(builder.meta));
		this.uniqueKey = builder.uniqueKey;
		this.pending = builder.pending;
		this.expiresIn = builder.expiresIn;
		this.expiresAt = builder.expiresAt;
		this.id = builder.id;
		this.uniquePeriod = builder.uniquePeriod;
		this.uniqueStates = Set.copyOf(builder.uniqueStates);
		this.tags = Collections.unmodifiableList(new ArrayList<>(builder.tags));
		this.timeout = builder.timeout;
		this.visibilityTimeout = builder.visibilityTimeout;
		this.concurrencyKey = builder.concurrencyKey;
		this.sequenceKey = builder.sequenceKey;
	}

	/** No options: everything defaults. */
	public static JobOptions none() {
		return NONE;
	}

	public static Builder builder() {
		return new Builder();
	}

	/** The queue, or {@code null} for the handler's. */
	public @Nullable String queue() {
		return this.queue;
	}

	/** The priority, or {@code null} for the handler's. */
	public @Nullable Integer priority() {
		return this.priority;
	}

	/** Delay before the job becomes due, or {@code null}. */
	public @Nullable Duration delay() {
		return this.delay;
	}

	/** When the job becomes due, or {@code null}. */
	public @Nullable Instant runAt() {
		return this.runAt;
	}

	/** The partial retry policy, or {@code null}. */
	public @Nullable RetryPolicy retry() {
		return this.retry;
	}

	/** The partial retry policy as JSON, or {@code null}. */
	public @Nullable String retryJson() {
		return this.retryJson;
	}

	/**
	 * The partial retry policy: {@link #retry()}, else {@link #retryJson()} parsed, else
	 * {@code null}. The JSON is parsed at the first enqueue with these options and kept for
	 * the next ones; JSON that does not parse is not kept, so it throws at every enqueue.
	 * @throws RetryPolicyValidationException when the JSON is malformed or a field invalid
	 */
	@Nullable RetryPolicy partialRetry() {
		if (this.retryJson == null) {
			return this.retry;
		}
		// immutable: parsed once (a benign race at worst parses it twice, like String.hashCode)
		RetryPolicy parsed = this.parsedRetryJson;
		if (parsed == null) {
			parsed = RetryPolicy.parsePartial(this.retryJson);
			this.parsedRetryJson = parsed;
		}
		return parsed;
	}

	/** Metadata stored with the job (never {@code null}). */
	public Map<String, Object> meta() {
		return this.meta;
	}

	/**
	 * These options with more metadata entries, which win over the same keys: the trace
	 * context of an observed enqueue.
	 */
	JobOptions withMeta(Map<String, String> entries) {
		if (entries.isEmpty()) {
			return this;
		}
		return copy(toBuilder().meta(entries).id(this.id));
	}

	/**
	 * These options for a job of a workflow: held until the workflow activates it or not, and
	 * without an id of its own (the store generates it).
	 */
	JobOptions forWorkflow(boolean pending) {
		return copy(toBuilder().pending(pending));
	}

	/** The job's id as chosen by the producer, or {@code null} for a new UUIDv7. */
	public @Nullable String id() {
		return this.id;
	}

	/** How long a holder of the unique key counts as a duplicate, or {@code null} for as long as it is live. */
	public @Nullable Duration uniquePeriod() {
		return this.uniquePeriod;
	}

	/** The states in which a holder of the unique key counts as a duplicate; empty for every live one. */
	public Set<JobState> uniqueStates() {
		return this.uniqueStates;
	}

	/** The job's execution timeout, or {@code null} for its handler's ({@link OjsJob#timeout()}). */
	public @Nullable Duration timeout() {
		return this.timeout;
	}

	/** The job's reservation for external workers whose fetch names none, or {@code null} for the worker's. */
	public @Nullable Duration visibilityTimeout() {
		return this.visibilityTimeout;
	}

	/** The key its type's limit per key counts it under ({@link OjsJob#globalConcurrencyPerKey()}), or {@code null}. */
	public @Nullable String concurrencyKey() {
		return this.concurrencyKey;
	}

	/** The key of the job's sequence ({@link Builder#sequenceKey(String)}), or {@code null}. */
	public @Nullable String sequenceKey() {
		return this.sequenceKey;
	}

	/** The unique key, or {@code null}. */
	public @Nullable String uniqueKey() {
		return this.uniqueKey;
	}

	/** Whether the job is staged in state {@code pending} until activated (ojs-core §6). */
	public boolean pending() {
		return this.pending;
	}

	/** How long from enqueue the job expires unless it has started, or {@code null}. */
	public @Nullable Duration expiresIn() {
		return this.expiresIn;
	}

	/** When the job expires unless it has started, or {@code null}. */
	public @Nullable Instant expiresAt() {
		return this.expiresAt;
	}

	/**
	 * The tags for filtering and observability (ojs-core.md {@code tags}), never
	 * {@code null}: checked at enqueue ({@link JobOptionRules}), not stored.
	 */
	public List<String> tags() {
		return this.tags;
	}

	/** A copy built from {@code builder}, keeping the retry JSON parsed (copies are made per enqueue). */
	private JobOptions copy(Builder builder) {
		JobOptions copy = new JobOptions(builder);
		copy.parsedRetryJson = (this.retryJson != null) ? partialRetry() : null;
		return copy;
	}

	/** A builder holding these options. */
	private Builder toBuilder() {
		Builder builder = new Builder();
		builder.queue = this.queue;
		builder.priority = this.priority;
		builder.delay = this.delay;
		builder.runAt = this.runAt;
		builder.retry = this.retry;
		builder.retryJson = this.retryJson;
		builder.meta.putAll(this.meta);
		builder.uniqueKey = this.uniqueKey;
		builder.pending = this.pending;
		builder.expiresIn = this.expiresIn;
		builder.expiresAt = this.expiresAt;
		builder.uniquePeriod = this.uniquePeriod;
		builder.uniqueStates = this.uniqueStates;
		builder.tags = this.tags;
		builder.timeout = this.timeout;
		builder.visibilityTimeout = this.visibilityTimeout;
		builder.concurrencyKey = this.concurrencyKey;
		builder.sequenceKey = this.sequenceKey;
		return builder;
	}

	@Override
	public String toString() {
		return "JobOptions[queue=" + this.queue + ", priority=" + this.priority + ", delay=" + this.delay + ", runAt="
				+ this.runAt + ", retry=" + ((this.retry != null) ? this.retry.toJson() : this.retryJson) + ", meta="
				+ this.meta + ", uniqueKey=" + this.uniqueKey + ", id=" + this.id + ", uniquePeriod="
				+ this.uniquePeriod + ", uniqueStates=" + this.uniqueStates + ", pending=" + this.pending
				+ (this.tags.isEmpty() ? "" : ", tags=" + this.tags)
				+ ((this.expiresAt != null) ? ", expiresAt=" + this.expiresAt : "")
				+ ((this.expiresIn != null) ? ", expiresIn=" + this.expiresIn : "")
				+ ((this.timeout != null) ? ", timeout=" + this.timeout : "")
				+ ((this.visibilityTimeout != null) ? ", visibilityTimeout=" + this.visibilityTimeout : "")
				+ ((this.concurrencyKey != null) ? ", concurrencyKey=" + this.concurrencyKey : "")
				+ ((this.sequenceKey != null) ? ", sequenceKey=" + this.sequenceKey : "") + "]";
	}

	/** Builder of {@link JobOptions}. */
	public static final class Builder {

		private @Nullable String queue;
		private @Nullable Integer priority;
		private @Nullable Duration delay;
		private @Nullable Instant runAt;
		private @Nullable RetryPolicy retry;
		private @Nullable String retryJson;

		private final Map<String, Object> meta = new LinkedHashMap<>();

		private @Nullable String uniqueKey;
		private boolean pending;
		private @Nullable Duration expiresIn;
		private @Nullable Instant expiresAt;
		private @Nullable String id;
		private @Nullable Duration uniquePeriod;

		private Set<JobState> uniqueStates = Set.of();

		private List<String> tags = List.of();
		private @Nullable Duration timeout;
		private @Nullable Duration visibilityTimeout;
		private @Nullable String concurrencyKey;
		private @Nullable String sequenceKey;

		private Builder() {
		}

		/** The queue to put the job on. */
		public Builder queue(String queue) {
			this.queue = queue;
			return this;
		}

		/**
		 * The priority; higher runs first. From {@value JobOptionRules#MIN_PRIORITY} to
		 * {@value JobOptionRules#MAX_PRIORITY}, checked at enqueue.
		 */
		public Builder priority(int priority) {
			this.priority = priority;
			return this;
		}

		/** Run no earlier than this long from now. Replaces {@link #runAt(Instant)}. */
		public Builder delay(@Nullable Duration delay) {
			if (delay != null && delay.isNegative()) {
				throw new IllegalArgumentException("delay must not be negative: " + delay);
			}
			this.delay = delay;
			this.runAt = null;
			return this;
		}

		/** Run no earlier than this time. Replaces {@link #delay(Duration)}. */
		public Builder runAt(Instant runAt) {
			this.runAt = runAt;
			this.delay = null;
			return this;
		}

		/**
		 * A (possibly partial) retry policy: its set fields win over the handler's and the
		 * application's (spec §8.1). Replaces {@link #retry(String)}.
		 */
		public Builder retry(RetryPolicy retry) {
			this.retry = retry;
			this.retryJson = null;
			return this;
		}

		/**
		 * A partial retry policy as snake_case JSON, e.g.
		 * <code>{"max_attempts": 5}</code>, validated at enqueue (parsed once per
		 * {@link JobOptions}, however many enqueues use them). Replaces
		 * {@link #retry(RetryPolicy)}.
		 */
		public Builder retry(String json) {
			this.retryJson = json;
			this.retry = null;
			return this;
		}

		/** Adds one metadata entry. */
		public Builder meta(String key, Object value) {
			this.meta.put(Objects.requireNonNull(key, "key must not be null"), value);
			return this;
		}

		/** Adds metadata entries. */
		public Builder meta(Map<String, ?> meta) {
			meta.forEach(this::meta);
			return this;
		}

		/**
		 * A live job (not yet finished) of the same type with the same key is returned
		 * instead of a new one. Inside a REPEATABLE READ or SERIALIZABLE transaction on
		 * PostgreSQL or H2, a key committed concurrently by another transaction surfaces as a
		 * {@link org.springframework.dao.ConcurrencyFailureException}: retry the transaction.
		 */
		public Builder uniqueKey(String uniqueKey) {
			this.uniqueKey = uniqueKey;
			return this;
		}

		/**
		 * Stage the job in state {@code pending}: no worker runs it until it is activated
		 * ({@link dev.ojs.job.JobStore#activate(String)}, ojs-core §6). A pending job has no
		 * run time: with {@link #runAt(Instant)} or {@link #delay(Duration)} the enqueue is
		 * refused.
		 */
		public Builder pending(boolean pending) {
			this.pending = pending;
			return this;
		}

		/**
		 * Expire the job at this time unless it has started: a job still waiting then is
		 * discarded, never run (ojs-core.md {@code expires_at}). Replaces
		 * {@link #expiresIn(Duration)}.
		 */
		public Builder expiresAt(@Nullable Instant expiresAt) {
			this.expiresAt = expiresAt;
			this.expiresIn = null;
			return this;
		}

		/**
		 * Expire the job this long after it is enqueued unless it has started. Replaces
		 * {@link #expiresAt(Instant)}.
		 */
		public Builder expiresIn(@Nullable Duration expiresIn) {
			if (expiresIn != null && expiresIn.isNegative()) {
				throw new IllegalArgumentException("expiresIn must not be negative: " + expiresIn);
			}
			this.expiresIn = expiresIn;
			this.expiresAt = null;
			return this;
		}

		/**
		 * The job's id, a lowercase UUIDv7 (ojs-core §5.1), instead of a new
		 * UUIDv7. Enqueueing is idempotent on the id: when a job with this id exists, nothing
		 * is inserted and the enqueue returns that id, as a unique key's conflict does (over
		 * HTTP the same case answers {@code 409 duplicate}). For one job only.
		 */
		public Builder id(@Nullable String id) {
			this.id = id;
			return this;
		}

		/**
		 * Limits the unique key to holders created within this period (spec README decision
		 * 35): an older live holder gives up its key and the new job is inserted.
		 */
		public Builder uniquePeriod(@Nullable Duration uniquePeriod) {
			this.uniquePeriod = uniquePeriod;
			return this;
		}

		/**
		 * Limits the unique key to holders in these live states (ojs-unique-jobs.md §2
		 * {@code states}): a holder in another state gives up its key and the new job is
		 * inserted. Empty (the default) means every live state.
		 */
		public Builder uniqueStates(Set<JobState> uniqueStates) {
			this.uniqueStates = Set.copyOf(uniqueStates);
			return this;
		}

		/**
		 * Tags for filtering and observability (ojs-core.md {@code tags}); a {@code null} tag
		 * is refused at enqueue. They are checked as over HTTP, and not stored.
		 */
		public Builder tags(Collection<String> tags) {
			this.tags = new ArrayList<>(Objects.requireNonNull(tags, "tags must not be null"));
			return this;
		}

		/**
		 * The job's execution timeout (ojs-timeouts.md §3.1): an attempt still running this
		 * long after it started fails with error type {@code timeout} and the retry policy
		 * applies. An in-process handler is interrupted; an external worker's reservation
		 * ends then. Wins over the handler's {@link OjsJob#timeout()}; {@code null} for it.
		 */
		public Builder timeout(@Nullable Duration timeout) {
			if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
				throw new IllegalArgumentException("timeout must be positive: " + timeout);
			}
			this.timeout = timeout;
			return this;
		}

		/**
		 * How long an external worker's fetch reserves the job when the fetch names no
		 * visibility timeout (ojs-worker-protocol.md); {@code null} for the worker's default.
		 */
		public Builder visibilityTimeout(@Nullable Duration visibilityTimeout) {
			if (visibilityTimeout != null && (visibilityTimeout.isNegative() || visibilityTimeout.isZero())) {
				throw new IllegalArgumentException("visibilityTimeout must be positive: " + visibilityTimeout);
			}
			this.visibilityTimeout = visibilityTimeout;
			return this;
		}

		/**
		 * The key the limit per key of the job's type counts it under
		 * ({@link OjsJob#globalConcurrencyPerKey()}: at most so many jobs of the type with one key
		 * run at once on all nodes), e.g. a customer or tenant id; {@code null} for none.
		 */
		public Builder concurrencyKey(@Nullable String concurrencyKey) {
			this.concurrencyKey = concurrencyKey;
			return this;
		}

		/**
		 * The key of the job's sequence: jobs with one sequence key run one at a time, on all
		 * nodes together, strictly in enqueue order; a job holds the ones after it until it ends
		 * (its retries included), e.g. the events of one account; {@code null} for none.
		 */
		public Builder sequenceKey(@Nullable String sequenceKey) {
			this.sequenceKey = sequenceKey;
			return this;
		}

		public JobOptions build() {
			return new JobOptions(this);
		}

	}

}

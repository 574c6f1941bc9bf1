package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.ojs.job.NewJob;
import dev.ojs.job.RateLimit;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsNames;
import dev.ojs.worker.RetentionSettings;
import dev.ojs.worker.WorkerSettings;

/**
 * Configuration properties for OJS jobs. Durations accept Spring Boot's simple style
 * ({@code 500ms}, {@code 5m}, {@code 180d}) and ISO-8601 ({@code PT0.5S}). Invalid values
 * fail start-up with a message naming the property.
 */
@ConfigurationProperties("ojs")
public class OjsProperties implements Validator {

	/**
	 * Whether to enable OJS jobs (job store, template and worker).
	 */
	private boolean enabled = true;

	/**
	 * Default reservation length of an attempt (spec section 9); a worker that neither
	 * finishes nor heartbeats within it loses the job to another node. Handlers may override
	 * it with '@OjsJob(visibilityTimeout)'.
	 */
	private Duration visibilityTimeout = WorkerSettings.DEFAULT_VISIBILITY_TIMEOUT;

	/**
	 * Number of most recent attempts whose errors each job's error history keeps (spec
	 * section 10.1), at least 10. A failure past it deletes the entries of earlier attempts.
	 */
	private int errorHistoryLimit = WorkerSettings.DEFAULT_ERROR_HISTORY;

	private final Worker worker = new Worker();

	private final Retry retry = new Retry();

	private final Jdbc jdbc = new Jdbc();

	private final DeadLetter deadLetter = new DeadLetter();

	private final Retention retention = new Retention();

	/**
	 * Rate limits of queues (ojs-queue-config.md section 8.3), by queue name: at most 'limit'
	 * jobs of the queue start per 'period', on all nodes and workers together. Set in the
	 * database at start-up; a limit changed at run time (Admin API, 'OjsQueues') holds until a
	 * node configured here starts again. Queues not named here keep the limit stored for them.
	 */
	private final Map<String, QueueRateLimit> rateLimits = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getVisibilityTimeout() {
		return this.visibilityTimeout;
	}

	public void setVisibilityTimeout(Duration visibilityTimeout) {
		this.visibilityTimeout = visibilityTimeout;
	}

	public int getErrorHistoryLimit() {
		return this.errorHistoryLimit;
	}

	public void setErrorHistoryLimit(int errorHistoryLimit) {
		this.errorHistoryLimit = errorHistoryLimit;
	}

	public Worker getWorker() {
		return this.worker;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public DeadLetter getDeadLetter() {
		return this.deadLetter;
	}

	public Retention getRetention() {
		return this.retention;
	}

	public Map<String, QueueRateLimit> getRateLimits() {
		return this.rateLimits;
	}

	/** The configured rate limits, validated. */
	public Map<String, RateLimit> rateLimits() {
		Map<String, RateLimit> limits = new LinkedHashMap<>();
		this.rateLimits.forEach((queue, limit) -> limits.put(queue, limit.toRateLimit()));
		return limits;
	}

	/**
	 * The application's default retry policy: the spec defaults (§8) overridden by
	 * {@code ojs.retry.*}, validated.
	 * @throws RetryPolicyValidationException when the result is invalid
	 */
	public RetryPolicy defaultRetryPolicy() {
		return this.retry.toPolicy().effective();
	}

	/** The worker settings these properties describe. */
	public WorkerSettings workerSettings() {
		Map<String, Integer> queues = new LinkedHashMap<>();
		if (this.worker.queues.isEmpty()) {
			queues.put(NewJob.DEFAULT_QUEUE, this.worker.concurrency);
		}
		this.worker.queues.forEach((queue, concurrency) -> queues.put(queue,
				(concurrency != null && concurrency > 0) ? concurrency : this.worker.concurrency));
		RetentionSettings retention = new RetentionSettings(this.retention.completed, this.retention.discarded,
				this.deadLetter.maxAge, this.deadLetter.maxCount, this.retention.pruneInterval);
		return new WorkerSettings(this.worker.nodeId, queues, this.worker.pollInterval, this.visibilityTimeout,
				this.worker.shutdownGracePeriod, retention, this.worker.concurrency, this.errorHistoryLimit,
				defaultRetryPolicy());
	}

	@Override
	public boolean supports(Class<?> clazz) {
		return OjsProperties.class.isAssignableFrom(clazz);
	}

	@Override
	public void validate(Object target, Errors errors) {
		OjsProperties properties = (OjsProperties) target;
		properties.validate(errors);
	}

	private void validate(Errors errors) {
		positive(errors, "visibilityTimeout", "ojs.visibility-timeout", this.visibilityTimeout);
		atLeast(errors, "errorHistoryLimit", "ojs.error-history-limit", this.errorHistoryLimit,
				WorkerSettings.MIN_ERROR_HISTORY);
		atLeast(errors, "worker.concurrency", "ojs.worker.concurrency", this.worker.concurrency, 1);
		this.worker.queues.forEach((queue, concurrency) -> {
			if (!OjsNames.isQueue(queue)) {
				reject(errors, "worker.queues", "ojs.worker.queues", queue, OjsNames.QUEUE_MESSAGE);
			}
			if (concurrency != null && concurrency < 0) {
				reject(errors, "worker.queues", "ojs.worker.queues." + queue, concurrency,
						"the concurrency must be at least 1 (0 or empty means ojs.worker.concurrency)");
			}
		});
		positive(errors, "worker.pollInterval", "ojs.worker.poll-interval", this.worker.pollInterval);
		notNegative(errors, "worker.shutdownGracePeriod", "ojs.worker.shutdown-grace-period",
				this.worker.shutdownGracePeriod);
		if (this.jdbc.tablePrefix == null || !JdbcStoreSettings.TABLE_PREFIX.matcher(this.jdbc.tablePrefix).matches()) {
			reject(errors, "jdbc.tablePrefix", "ojs.jdbc.table-prefix", this.jdbc.tablePrefix,
					"must match " + JdbcStoreSettings.TABLE_PREFIX.pattern());
		}
		if (this.jdbc.initializeSchema == null) {
			reject(errors, "jdbc.initializeSchema", "ojs.jdbc.initialize-schema", null, "must be set");
		}
		positive(errors, "deadLetter.maxAge", "ojs.dead-letter.max-age", this.deadLetter.maxAge);
		atLeast(errors, "deadLetter.maxCount", "ojs.dead-letter.max-count", this.deadLetter.maxCount, 0);
		notNegative(errors, "retention.completed", "ojs.retention.completed", this.retention.completed);
		notNegative(errors, "retention.discarded", "ojs.retention.discarded", this.retention.discarded);
		positive(errors, "retention.pruneInterval", "ojs.retention.prune-interval", this.retention.pruneInterval);
		this.rateLimits.forEach((queue, limit) -> {
			if (!OjsNames.isQueue(queue)) {
				// the rule OjsQueues, which sets the limits at start-up, applies to every edge
				reject(errors, "rateLimits", "ojs.rate-limits", queue, OjsNames.QUEUE_MESSAGE);
			}
			try {
				limit.toRateLimit();
			}
			catch (IllegalArgumentException ex) {
				reject(errors, "rateLimits", "ojs.rate-limits." + queue, limit, ex.getMessage());
			}
		});
		positive(errors, "maxArgsSize", "ojs.max-args-size", this.maxArgsSize);
		positive(errors, "maxMetaSize", "ojs.max-meta-size", this.maxMetaSize);
		if (this.maxResultSize == null || this.maxResultSize.toBytes() < JobSizeLimits.MIN_MAX_RESULT_BYTES) {
			reject(errors, "maxResultSize", "ojs.max-result-size", this.maxResultSize, "must be at least 64KB");
		}
		try {
			defaultRetryPolicy();
		}
		catch (RetryPolicyValidationException ex) {
			String field = (ex.field() != null) ? ex.field() : "";
			reject(errors, "retry." + camelCase(field), "ojs.retry." + field.replace('_', '-'), ex.value(),
					ex.getMessage());
		}
	}

	private static void positive(Errors errors, String field, String property, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			reject(errors, field, property, value, "must be a positive duration");
		}
	}

	private static void positive(Errors errors, String field, String property, @Nullable DataSize value) {
		if (value == null || value.toBytes() < 1) {
			reject(errors, field, property, value, "must be at least 1B");
		}
	}

	private static void notNegative(Errors errors, String field, String property, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			reject(errors, field, property, value, "must not be negative");
		}
	}

	private static void atLeast(Errors errors, String field, String property, int value, int min) {
		if (value < min) {
			reject(errors, field, property, value, "must be at least " + min);
		}
	}

	private static void reject(Errors errors, String field, String property, @Nullable Object value,
			String reason) {
		String message = "Invalid value '" + value + "' for property '" + property + "': " + reason;
		if (errors.getFieldType(field) != null) {
			errors.rejectValue(field, "ojs.invalid", message);
		}
		else {
			errors.reject("ojs.invalid", message);
		}
	}

	private static String camelCase(String snakeCase) {
		StringBuilder result = new StringBuilder(snakeCase.length());
		boolean upper = false;
		for (char c : snakeCase.toCharArray()) {
			if (c == '_' || c == '-') {
				upper = true;
			}
			else {
				result.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return result.toString();
	}

	/**
	 * Worker node settings.
	 */
	public static class Worker {

		/**
		 * Whether this node runs jobs. When false the node only enqueues (no worker is
		 * started).
		 */
		private boolean enabled = true;

		/**
		 * Whether the worker starts claiming jobs when the application starts. When false it
		 * waits for 'OjsWorker.start()'.
		 */
		private boolean autoStartup = true;

		/**
		 * Queues this node claims jobs from, each mapped to its concurrency limit (0 =
		 * 'ojs.worker.concurrency'); 'default' when none is configured. The queues of this
		 * node's '@OjsJob' handlers are always claimed from, with 'ojs.worker.concurrency'
		 * unless configured here. Every served queue runs every job type this node handles:
		 * a job's queue is the one given when it was enqueued, else its handler's queue.
		 */
		private Map<String, Integer> queues = new LinkedHashMap<>();

		/**
		 * Default maximum number of jobs of one queue running at once on this node, each on a
		 * handler thread of its own (created when needed). A claim takes a job per free
		 * thread, plus, for short jobs, those the busy threads are expected to reach within
		 * 5 ms (at most twice this many), so no job waits reserved for long.
		 */
		private int concurrency = WorkerSettings.DEFAULT_QUEUE_CONCURRENCY;

		/**
		 * Longest time an idle poller waits before looking for due jobs again. A job
		 * enqueued on this node wakes the poller as it commits, and on PostgreSQL one
		 * enqueued on any node does (NOTIFY).
		 */
		private Duration pollInterval = WorkerSettings.DEFAULT_POLL_INTERVAL;

		/**
		 * How long running jobs may finish when the application shuts down. Attempts still
		 * running then are interrupted and recorded as failed attempts with error type
		 * 'shutdown': they count against max_attempts and are retried (or discarded or
		 * dead-lettered) per their retry policy.
		 */
		private Duration shutdownGracePeriod = WorkerSettings.DEFAULT_SHUTDOWN_GRACE_PERIOD;

		/**
		 * Reservation owner id of this node; generated from host, pid and a random part when
		 * not set.
		 */
		private @Nullable String nodeId;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isAutoStartup() {
			return this.autoStartup;
		}

		public void setAutoStartup(boolean autoStartup) {
			this.autoStartup = autoStartup;
		}

		public Map<String, Integer> getQueues() {
			return this.queues;
		}

		public void setQueues(Map<String, Integer> queues) {
			this.queues = queues;
		}

		public int getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = concurrency;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public Duration getShutdownGracePeriod() {
			return this.shutdownGracePeriod;
		}

		public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
			this.shutdownGracePeriod = shutdownGracePeriod;
		}

		public @Nullable String getNodeId() {
			return this.nodeId;
		}

		public void setNodeId(@Nullable String nodeId) {
			this.nodeId = nodeId;
		}

	}

	/**
	 * Application-wide default retry policy (spec section 2). Unset fields inherit the spec
	 * defaults (section 8); '@OjsJob' attributes and per-enqueue options override these.
	 */
	public static class Retry {

		/**
		 * Total number of attempts including the first (spec default 3; 0 and 1 mean no
		 * retry).
		 */
		private @Nullable Integer maxAttempts;

		/**
		 * Delay before the first retry (spec default 1s).
		 */
		private @Nullable Duration initialInterval;

		/**
		 * Multiplier of successive delays, at least 1.0 (spec default 2.0).
		 */
		private @Nullable Double backoffCoefficient;

		/**
		 * Cap on any computed delay (spec default 5m).
		 */
		private @Nullable Duration maxInterval;

		/**
		 * Whether to randomise delays by a factor in [0.5, 1.5) (spec default true).
		 */
		private @Nullable Boolean jitter;

		/**
		 * Error types that are never retried: exact, or a prefix ending in '.*' (spec
		 * section 6).
		 */
		private @Nullable List<String> nonRetryableErrors;

		/**
		 * What happens to a job whose attempts are exhausted: 'discard' (spec default) or
		 * 'dead-letter'.
		 */
		private @Nullable OnExhaustion onExhaustion;

		/**
		 * Backoff formula: 'none', 'linear', 'exponential' (default) or 'polynomial'.
		 */
		private @Nullable BackoffStrategy backoffStrategy;

		public @Nullable Integer getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public @Nullable Duration getInitialInterval() {
			return this.initialInterval;
		}

		public void setInitialInterval(@Nullable Duration initialInterval) {
			this.initialInterval = initialInterval;
		}

		public @Nullable Double getBackoffCoefficient() {
			return this.backoffCoefficient;
		}

		public void setBackoffCoefficient(@Nullable Double backoffCoefficient) {
			this.backoffCoefficient = backoffCoefficient;
		}

		public @Nullable Duration getMaxInterval() {
			return this.maxInterval;
		}

		public void setMaxInterval(@Nullable Duration maxInterval) {
			this.maxInterval = maxInterval;
		}

		public @Nullable Boolean getJitter() {
			return this.jitter;
		}

		public void setJitter(@Nullable Boolean jitter) {
			this.jitter = jitter;
		}

		public @Nullable List<String> getNonRetryableErrors() {
			return this.nonRetryableErrors;
		}

		public void setNonRetryableErrors(@Nullable List<String> nonRetryableErrors) {
			this.nonRetryableErrors = nonRetryableErrors;
		}

		public @Nullable OnExhaustion getOnExhaustion() {
			return this.onExhaustion;
		}

		public void setOnExhaustion(@Nullable OnExhaustion onExhaustion) {
			this.onExhaustion = onExhaustion;
		}

		public @Nullable BackoffStrategy getBackoffStrategy() {
			return this.backoffStrategy;
		}

		public void setBackoffStrategy(@Nullable BackoffStrategy backoffStrategy) {
			this.backoffStrategy = backoffStrategy;
		}

		/** The partial policy these properties set (unset fields stay unset). */
		public RetryPolicy toPolicy() {
			// the builder leaves a null field unset and copies the list
			return RetryPolicy.builder()
				.maxAttempts(this.maxAttempts)
				.initialInterval(this.initialInterval)
				.backoffCoefficient(this.backoffCoefficient)
				.maxInterval(this.maxInterval)
				.jitter(this.jitter)
				.nonRetryableErrors(this.nonRetryableErrors)
				.onExhaustion(this.onExhaustion)
				.backoffStrategy(this.backoffStrategy)
				.build();
		}

	}

	/**
	 * JDBC job store settings.
	 */
	public static class Jdbc {

		/**
		 * When to create the job table: 'embedded' (only for embedded databases such as
		 * H2), 'always' or 'never'. The script is idempotent.
		 */
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

		/**
		 * Prefix of the job table's name (and its indexes): letters, digits and
		 * underscores, not starting with a digit, at most 40 characters.
		 */
		private String tablePrefix = JdbcStoreSettings.DEFAULT_TABLE_PREFIX;

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public String getTablePrefix() {
			return this.tablePrefix;
		}

		public void setTablePrefix(String tablePrefix) {
			this.tablePrefix = tablePrefix;
		}

	}

	/**
	 * Dead letter queue retention.
	 */
	public static class DeadLetter {

		/**
		 * Dead letters older than this are pruned.
		 */
		private Duration maxAge = RetentionSettings.DEFAULT_DEAD_LETTER_MAX_AGE;

		/**
		 * At most this many dead letters are kept; the oldest are pruned first.
		 */
		private int maxCount = RetentionSettings.DEFAULT_DEAD_LETTER_MAX_COUNT;

		public Duration getMaxAge() {
			return this.maxAge;
		}

		public void setMaxAge(Duration maxAge) {
			this.maxAge = maxAge;
		}

		public int getMaxCount() {
			return this.maxCount;
		}

		public void setMaxCount(int maxCount) {
			this.maxCount = maxCount;
		}

	}

	/**
	 * Retention of finished jobs.
	 */
	public static class Retention {

		/**
		 * How long completed jobs are kept; 0 deletes them on completion.
		 */
		private Duration completed = RetentionSettings.DEFAULT_COMPLETED;

		/**
		 * How long discarded (not dead-lettered) and cancelled jobs are kept.
		 */
		private Duration discarded = RetentionSettings.DEFAULT_DISCARDED;

		/**
		 * How often a worker node prunes finished jobs and old dead letters.
		 */
		private Duration pruneInterval = RetentionSettings.DEFAULT_PRUNE_INTERVAL;

		public Duration getCompleted() {
			return this.completed;
		}

		public void setCompleted(Duration completed) {
			this.completed = completed;
		}

		public Duration getDiscarded() {
			return this.discarded;
		}

		public void setDiscarded(Duration discarded) {
			this.discarded = discarded;
		}

		public Duration getPruneInterval() {
			return this.pruneInterval;
		}

		public void setPruneInterval(Duration pruneInterval) {
			this.pruneInterval = pruneInterval;
		}

	}


	/**
	 * A queue's rate limit.
	 */
	public static class QueueRateLimit {

		/**
		 * Most jobs of the queue that start per period, at least 1.
		 */
		private @Nullable Integer limit;

		/**
		 * Period of the limit, from 1ms to 1d.
		 */
		private Duration period = Duration.ofSeconds(1);

		public @Nullable Integer getLimit() {
			return this.limit;
		}

		public void setLimit(@Nullable Integer limit) {
			this.limit = limit;
		}

		public Duration getPeriod() {
			return this.period;
		}

		public void setPeriod(Duration period) {
			this.period = period;
		}

		RateLimit toRateLimit() {
			if (this.limit == null) {
				throw new IllegalArgumentException("a rate limit needs 'limit'");
			}
			return new RateLimit(this.limit, this.period);
		}

		@Override
		public String toString() {
			return "limit=" + this.limit + ", period=" + this.period;
		}

	}


	// ---- job size limits

	/**
	 * Most bytes of a job's args, as serialized JSON, for every job enqueued (Java API,
	 * HTTP binding, recurring jobs registered over HTTP). A larger one is refused: an
	 * OjsValidationException naming 'args', over HTTP 400 invalid_request. Replaces
	 * 'ojs.http.max-args-size', which is read when this is not set.
	 */
	private DataSize maxArgsSize = DataSize.ofBytes(JobSizeLimits.DEFAULT_MAX_ARGS_BYTES);

	/**
	 * Most bytes of a job's meta, as serialized JSON, for every job enqueued. A larger one is
	 * refused as 'ojs.max-args-size' says. Replaces 'ojs.http.max-meta-size', which is read
	 * when this is not set.
	 */
	private DataSize maxMetaSize = DataSize.ofBytes(JobSizeLimits.DEFAULT_MAX_META_BYTES);

	public DataSize getMaxArgsSize() {
		return this.maxArgsSize;
	}

	public void setMaxArgsSize(DataSize maxArgsSize) {
		this.maxArgsSize = maxArgsSize;
	}

	public DataSize getMaxMetaSize() {
		return this.maxMetaSize;
	}

	public void setMaxMetaSize(DataSize maxMetaSize) {
		this.maxMetaSize = maxMetaSize;
	}

	/**
	 * Most bytes of a job's result (an ack's 'result', a handler method's return value), as
	 * serialized JSON; at least 64KB. A larger one is refused: over HTTP 400 naming 'result'
	 * and the limit; a handler's fails its attempt.
	 */
	private DataSize maxResultSize = DataSize.ofBytes(JobSizeLimits.DEFAULT_MAX_RESULT_BYTES);

	public DataSize getMaxResultSize() {
		return this.maxResultSize;
	}

	public void setMaxResultSize(DataSize maxResultSize) {
		this.maxResultSize = maxResultSize;
	}

}

package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.ojs.job.NewJob;
import dev.ojs.job.RateLimit;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.JobSizeLimits;
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

	@NestedConfigurationProperty
	private final RetryProperties retry = new RetryProperties();

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

	/**
	 * Settings of queues by queue name, such as 'ojs.queues.<name>.concurrency': at most that
	 * many of the queue's jobs active at once on all nodes together. Queues not named here keep
	 * the settings stored for them.
	 */
	private final Map<String, OjsQueueProperties> queues = new LinkedHashMap<>();

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

	public RetryProperties getRetry() {
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

	public Map<String, OjsQueueProperties> getQueues() {
		return this.queues;
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
		OjsPropertiesValidation.validate((OjsProperties) target, errors);
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

		/**
		 * Whether a claim waits for its commit to reach PostgreSQL's write-ahead log on disk.
		 * By default it does not: a crash of the database server within the WAL writer's
		 * delay undoes the claim, and its jobs are claimed again with their attempt not
		 * consumed. Enqueues and outcomes always wait. No effect on other databases.
		 */
		private boolean durableClaims;

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

		public boolean isDurableClaims() {
			return this.durableClaims;
		}

		public void setDurableClaims(boolean durableClaims) {
			this.durableClaims = durableClaims;
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
		 * How often a worker node prunes finished jobs and old dead letters. A run deletes in
		 * slices of at most 1 s, one after the other while each finds rows left, for up to half
		 * the interval.
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

package dev.ojs.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.BackoffStrategy;
import dev.ojs.retry.OnExhaustion;

/**
 * Marks a bean method as the handler of a job type. The job's JSON {@code args} array binds
 * positionally to the method's parameters (a {@link JobContext} parameter, anywhere, is
 * supplied by the worker and takes no argument). Returning normally completes the job (a
 * return value is ignored);
 * throwing fails the attempt, and the exception is translated into an OJS error:
 * <ol>
 * <li>the error type is {@link OjsJobException#getType()}, else the exception class's
 * {@link OjsError#type() @OjsError type}, else the exception's fully-qualified class
 * name, nested classes joined by {@code '.'} ({@code com.acme.Billing.CardDeclined}, so
 * {@code "com.acme.Billing.*"} matches it in {@code non_retryable_errors});</li>
 * <li>the code is {@link OjsJobException#getCode()}, else the code of the list below whose
 * listed class is the <em>closest</em> superclass of the exception (an exact match beats a
 * superclass match), else the exception class's {@link OjsError#code() @OjsError code},
 * else {@code RETRY}.</li>
 * </ol>
 * A {@link JobErrorClassifier} bean may still override the result.
 * <p>
 * Every other attribute has an "inherit" default: unset retry attributes fall through to
 * {@code ojs.retry.*} and then to the spec defaults (spec §8.1); per-enqueue options
 * ({@link JobOptions.Builder#retry(dev.ojs.retry.RetryPolicy)}) override them in turn.
 * Durations are written as ISO-8601 ({@code "PT0.5S"}) or in Spring Boot's simple style
 * ({@code "500ms"}, {@code "5m"}).
 * <p>
 * Methods are found on the target class of each singleton bean, so beans behind proxies
 * (for example {@code @Transactional} ones) work, and the handler is invoked through the
 * proxy. A duplicate job type, an unparseable attribute, a parameter that cannot be bound,
 * an {@code @OjsJob} method on a bean that is not a singleton (prototype, request, session
 * or any other scope), and one on a singleton whose class its bean definition does not
 * reveal (for example a {@code @Bean} method declared with an interface return type) fail
 * application start-up.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OjsJob {

	/** Value of {@link #priority()} meaning "inherit" (priority 0). */
	int INHERIT_PRIORITY = Integer.MIN_VALUE;

	/** Value of numeric attributes meaning "inherit". */
	int INHERIT = -1;

	/**
	 * The sole entry of {@link #nonRetryableErrors()} meaning "inherit" (its default):
	 * {@value}. It is not a valid error type pattern, so it cannot clash with one.
	 */
	String INHERIT_LIST = "<inherit>";

	/** The dot-namespaced job type this method handles, e.g. {@code "email.send_welcome"}. */
	String type();

	/** Queue its jobs go to when the enqueue names none; empty = {@code "default"}. */
	String queue() default "";

	/** Default priority of its jobs (higher runs first); unset = 0. */
	int priority() default INHERIT_PRIORITY;

	/**
	 * At most this many jobs of this type run at once on one node; the default 0 leaves only
	 * the queue's limit ({@code ojs.worker.concurrency}).
	 */
	int concurrency() default 0;

	/**
	 * At most this many jobs of this type run at once on all nodes together, in-process and HTTP
	 * workers alike; the default 0 sets no such limit. Written to the job store (table
	 * {@code <prefix>limits}) when the node publishes its handlers at start-up, so the node
	 * started last decides; claims hold to it in their transaction, as to a queue's
	 * {@code ojs.queues.<name>.concurrency}.
	 */
	int globalConcurrency() default 0;

	/**
	 * At most this many jobs of this type with one concurrency key
	 * ({@link JobOptions.Builder#concurrencyKey(String)}, over HTTP the option
	 * {@code concurrency_key}) run at once on all nodes together: a limit partitioned by key, e.g.
	 * one job per customer. Jobs without a key are held only to {@link #globalConcurrency()}. The
	 * default 0 sets no such limit; stored and held like {@link #globalConcurrency()}.
	 */
	int globalConcurrencyPerKey() default 0;

	/** Reservation length (spec §9) of its attempts; empty = {@code ojs.visibility-timeout}. */
	String visibilityTimeout() default "";

	/**
	 * Execution timeout of its attempts (ojs-timeouts.md §3.1), e.g. {@code "PT30S"}: an
	 * attempt still running this long after it started is interrupted and fails with error
	 * type {@code timeout}, and the retry policy applies. A job's own timeout
	 * ({@code JobOptions} {@code timeout}, or {@code timeout_ms} over HTTP) wins. Empty (the
	 * default) = none. Checked at start-up: it must be a positive duration.
	 */
	String timeout() default "";

	/**
	 * Whether the handler's thread is interrupted when its job is cancelled while it runs
	 * (ojs-core.md §7.6). Either way {@link JobContext#isCancelled()} tells it, within one
	 * {@code ojs.worker.poll-interval}. Off by default: interrupting code that does not
	 * expect it (a JDBC call, a file channel) can break what it was doing.
	 */
	boolean interruptOnCancel() default false;

	/** {@code max_attempts}: total attempts including the first; -1 = inherit. */
	int maxAttempts() default INHERIT;

	/** {@code initial_interval} as a duration; empty = inherit. */
	String initialInterval() default "";

	/** {@code backoff_coefficient} (at least 1.0); -1 = inherit. */
	double backoffCoefficient() default INHERIT;

	/** {@code max_interval} as a duration; empty = inherit. */
	String maxInterval() default "";

	/** {@code backoff_strategy}; {@link Backoff#INHERIT} by default. */
	Backoff backoff() default Backoff.INHERIT;

	/** {@code jitter}; {@link Jitter#INHERIT} by default. */
	Jitter jitter() default Jitter.INHERIT;

	/**
	 * {@code non_retryable_errors} patterns (spec §6), e.g. {@code "java.net.*"}. The default,
	 * {@code {INHERIT_LIST}} (the single entry {@value #INHERIT_LIST}), inherits {@code ojs.retry.non-retryable-errors}
	 * (then the spec's empty list); an explicit empty array, {@code nonRetryableErrors = {}},
	 * means "none", overriding the application's list for this job type.
	 */
	String[] nonRetryableErrors() default { INHERIT_LIST };

	/** {@code on_exhaustion}; {@link Exhaustion#INHERIT} by default. */
	Exhaustion onExhaustion() default Exhaustion.INHERIT;

	/** Exceptions (and subclasses) that fail the attempt with code {@code DISCARD}. */
	Class<? extends Throwable>[] discardOn() default {};

	/** Exceptions (and subclasses) that fail the attempt with code {@code DEAD_LETTER}. */
	Class<? extends Throwable>[] deadLetterOn() default {};

	/** Exceptions (and subclasses) that fail the attempt with code {@code FAIL}. */
	Class<? extends Throwable>[] failOn() default {};

	/**
	 * Exceptions (and subclasses) that fail the attempt with code {@code RETRY}, for example
	 * to carve a subclass out of a broader {@link #discardOn()} entry. The policy's
	 * {@code non_retryable_errors} still apply.
	 */
	Class<? extends Throwable>[] retryOn() default {};

	/** {@link BackoffStrategy} plus "inherit". */
	enum Backoff {

		/** Inherit the application or spec default. */
		INHERIT(null),
		/** §3.1 constant. */
		NONE(BackoffStrategy.NONE),
		/** §3.2 linear. */
		LINEAR(BackoffStrategy.LINEAR),
		/** §3.3 exponential. */
		EXPONENTIAL(BackoffStrategy.EXPONENTIAL),
		/** §3.4 polynomial. */
		POLYNOMIAL(BackoffStrategy.POLYNOMIAL);

		private final @Nullable BackoffStrategy strategy;

		Backoff(@Nullable BackoffStrategy strategy) {
			this.strategy = strategy;
		}

		/** The strategy, or {@code null} for {@link #INHERIT}. */
		public @Nullable BackoffStrategy strategy() {
			return this.strategy;
		}

	}

	/** {@link OnExhaustion} plus "inherit". */
	enum Exhaustion {

		/** Inherit the application or spec default. */
		INHERIT(null),
		/** Discard exhausted jobs. */
		DISCARD(OnExhaustion.DISCARD),
		/** Keep exhausted jobs in the dead letter queue. */
		DEAD_LETTER(OnExhaustion.DEAD_LETTER);

		private final @Nullable OnExhaustion onExhaustion;

		Exhaustion(@Nullable OnExhaustion onExhaustion) {
			this.onExhaustion = onExhaustion;
		}

		/** The value, or {@code null} for {@link #INHERIT}. */
		public @Nullable OnExhaustion onExhaustion() {
			return this.onExhaustion;
		}

	}

	/** {@code jitter} plus "inherit". */
	enum Jitter {

		/** Inherit the application or spec default. */
		INHERIT(null),
		/** Randomise delays (spec §5). */
		ENABLED(Boolean.TRUE),
		/** Use computed delays exactly. */
		DISABLED(Boolean.FALSE);

		private final @Nullable Boolean jitter;

		Jitter(@Nullable Boolean jitter) {
			this.jitter = jitter;
		}

		/** The value, or {@code null} for {@link #INHERIT}. */
		public @Nullable Boolean jitter() {
			return this.jitter;
		}

	}

}

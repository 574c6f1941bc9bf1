package dev.ojs.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.ojs.recurring.OverlapPolicy;

/**
 * Enqueues the job of an {@link OjsJob @OjsJob} method on a schedule (ojs-cron.md): at every
 * occurrence of {@link #cron()} in {@link #zone()}, exactly once across every node sharing the
 * database. The job is an ordinary job of the method's type: it runs with the handler's
 * policy, which {@link #retry()} may override for this recurring job.
 * <p>
 * {@link #cron()}, {@link #zone()}, {@link #enabled()} and {@link #retry()} accept property
 * placeholders ({@code "${reports.cron:0 2 * * *}"}). The application registers its
 * annotated recurring jobs at start-up (an upsert), and disables those it declared before but no
 * longer declares. An invalid name, expression or zone fails start-up naming the field.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OjsRecurring {

	/** The recurring job's unique name, {@code [a-z0-9][a-z0-9-.]*}, e.g. {@code "reports.nightly"}. */
	String name();

	/**
	 * 5 fields (minute first) or 6 (second first), a macro ({@code @daily}, {@code @hourly}, ...)
	 * or {@code @every <duration>} ({@code @every 10s}).
	 */
	String cron();

	/** IANA time zone the expression is read in; default {@code UTC}. */
	String zone() default "UTC";

	/** What an occurrence does while the previous job is unfinished; default {@code skip}. */
	OverlapPolicy overlap() default OverlapPolicy.SKIP;

	/** Whether the recurring job fires: {@code "true"}, {@code "false"} or a placeholder resolving to one. */
	String enabled() default "true";

	/** The jobs' {@code args}, a JSON array; default none. */
	String args() default "[]";

	/**
	 * Retry policy fields for this recurring job's jobs as JSON (ojs-retry.md), e.g.
	 * {@code {"max_attempts": 10}}; the handler's policy applies to the rest. Empty: the
	 * handler's policy.
	 */
	String retry() default "";

	/** For people: what the recurring job does. */
	String description() default "";

}

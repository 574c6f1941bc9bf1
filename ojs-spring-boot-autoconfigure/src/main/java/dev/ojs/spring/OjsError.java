package dev.ojs.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.ojs.retry.ErrorCode;

/**
 * Declares how an exception class is reported when it escapes an {@link OjsJob @OjsJob}
 * handler: its OJS error type and response code (spec §7). Inherited by subclasses. The
 * handler's own {@code discardOn}/{@code deadLetterOn}/{@code failOn}/{@code retryOn} lists
 * take precedence over {@link #code()}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface OjsError {

	/**
	 * Dot-namespaced error type, e.g. {@code "external.stripe.card_declined"}; empty = the
	 * exception's fully-qualified class name, nested classes joined by {@code '.'}.
	 */
	String type() default "";

	/** The response code. */
	ErrorCode code() default ErrorCode.RETRY;

}

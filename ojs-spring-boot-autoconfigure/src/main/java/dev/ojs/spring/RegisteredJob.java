package dev.ojs.spring;

import java.time.Duration;

import dev.ojs.retry.RetryPolicy;

/**
 * One registered {@link OjsJob @OjsJob} handler.
 *
 * @param type the job type
 * @param queue the queue its jobs go to by default
 * @param priority the default priority
 * @param concurrency per-node limit for this type; 0 = only the queue's limit
 * @param globalConcurrency limit for this type on all nodes together; 0 = none
 * @param globalConcurrencyPerKey limit for this type's jobs with one concurrency key on all nodes; 0 = none
 * @param visibilityTimeout its reservation length
 * @param handlerPolicy the retry settings from the annotation only (partial: unset fields inherit)
 * @param effectivePolicy spec defaults &lt; {@code ojs.retry.*} &lt; annotation, validated
 * @param beanName the bean that declares the handler method
 * @param method the handler method, e.g. {@code EmailJobs#sendWelcome(String, int)}
 */
public record RegisteredJob(String type, String queue, int priority, int concurrency, int globalConcurrency, int globalConcurrencyPerKey,
		Duration visibilityTimeout,
		RetryPolicy handlerPolicy, RetryPolicy effectivePolicy, String beanName, String method) {

}

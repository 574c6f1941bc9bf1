package dev.ojs.job;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;

/**
 * What a worker node published about a job type it handles, so that a node without the
 * handler routes its jobs to the handler's queue and priority, and a job runs with the
 * handler's retry policy wherever it was enqueued. The latest publication of a type wins.
 *
 * @param type the job type
 * @param queue the handler's queue: where jobs enqueued without one go
 * @param priority the handler's priority: what jobs enqueued without one get
 * @param applicationPolicy the publishing application's defaults ({@code ojs.retry.*}), partial
 * @param handlerPolicy the handler's own settings ({@code @OjsJob} attributes), partial
 * @param application the publishing application's name, or {@code null}
 * @param nodeId the publishing node
 * @param publishedAt when it was published
 */
public record PublishedHandler(String type, String queue, int priority, RetryPolicy applicationPolicy,
		RetryPolicy handlerPolicy, @Nullable String application, String nodeId, Instant publishedAt) {

	/** The layers of a job's policy under this handler: spec, application, handler, then the job's own fields. */
	public RetryPolicyLayers layers(RetryPolicy jobPolicy) {
		return RetryPolicyLayers.spec()
			.over(RetryPolicyLayers.APPLICATION, this.applicationPolicy)
			.over(RetryPolicyLayers.HANDLER, this.handlerPolicy)
			.over(RetryPolicyLayers.JOB, jobPolicy);
	}

}

package dev.ojs.spring;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.retry.RetryPolicyValidationException;

/**
 * Enqueues, looks up and cancels jobs. Enqueues join the caller's transaction when one is
 * active on the job store's {@link javax.sql.DataSource}, so a job is only stored if the
 * business change that asked for it commits.
 * <p>
 * A job enqueued without a queue or priority gets its handler's, also when the handler runs
 * in another application ({@link HandlerDirectory}). Only the retry policy fields given for
 * the job ({@link JobOptions.Builder#retry(RetryPolicy)}) are stored with it: the handler
 * that runs the job supplies the rest (spec §8.1). They are validated at enqueue (RET-16):
 * an invalid policy throws {@link RetryPolicyValidationException} naming the field, and
 * nothing is written.
 */
public class OjsTemplate {

	private final JobStore store;

	private final HandlerDirectory handlers;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	/**
	 * @param store where jobs are stored
	 * @param registry the handlers of this application, for their queue, priority and
	 * policy
	 * @param defaultPolicy the application's retry defaults ({@code ojs.retry.*})
	 * @param jsonMapper serialises arguments and metadata
	 */
	public OjsTemplate(JobStore store, OjsJobRegistry registry, RetryPolicy defaultPolicy, JsonMapper jsonMapper) {
		this(store, new HandlerDirectory(registry, store, defaultPolicy, null), jsonMapper);
	}

	/**
	 * @param store where jobs are stored
	 * @param handlers where each type's queue, priority and policy come from
	 * @param jsonMapper serialises arguments and metadata
	 */
	public OjsTemplate(JobStore store, HandlerDirectory handlers, JsonMapper jsonMapper) {
		this(store, handlers, jsonMapper, Clock.systemUTC());
	}

	OjsTemplate(JobStore store, HandlerDirectory handlers, JsonMapper jsonMapper, Clock clock) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.handlers = Objects.requireNonNull(handlers, "handlers must not be null");
		this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper must not be null");
		this.clock = clock;
	}

	/**
	 * Enqueues a job with default options. Each argument is one element of the job's
	 * {@code args} array (so a single {@code List} argument is one element); use
	 * {@link #enqueue(String, List, JobOptions)} to pass an argument list.
	 * @param type the job type
	 * @param args its arguments, serialised to a JSON array
	 * @return the job id
	 */
	public String enqueue(String type, Object... args) {
		return enqueue(type, Arrays.asList(args), JobOptions.none());
	}

	/**
	 * Enqueues a job.
	 * @param type the job type
	 * @param args its arguments, serialised to a JSON array
	 * @param options queue, priority, schedule, retry policy, metadata, unique key
	 * @return the job id (an existing live job's id when one of the same type has the same
	 * unique key)
	 * @throws RetryPolicyValidationException when the resulting retry policy is invalid
	 */
	public String enqueue(String type, List<?> args, JobOptions options) {
		return this.store.insert(newJobs(type, List.of(args), options)).get(0);
	}

	/**
	 * Enqueues one job per argument list, with the same options, in one round trip (one
	 * {@link JobStore#insert} call). A unique key in the options applies to every job, so
	 * they all resolve to one job.
	 * @param type the job type
	 * @param argsList one argument list per job
	 * @param options queue, priority, schedule, retry policy, metadata, unique key
	 * @return the job ids, in the order of {@code argsList}
	 * @throws RetryPolicyValidationException when the resulting retry policy is invalid
	 */
	public List<String> enqueueAll(String type, List<? extends List<?>> argsList, JobOptions options) {
		if (argsList.isEmpty()) {
			return List.of();
		}
		return this.store.insert(newJobs(type, argsList, options));
	}

	/** The job with this id, if it is stored. */
	public Optional<JobInfo> getJob(String id) {
		return this.store.find(id).map((job) -> JobInfo.of(job, this.handlers.layers(job)));
	}

	/**
	 * Cancels a job that has not started yet (scheduled, available or retryable).
	 * @return whether it was cancelled
	 */
	public boolean cancel(String id) {
		return this.store.cancel(id);
	}

	/**
	 * One job per argument list. Everything but the arguments depends only on the type and
	 * the options, so it is resolved (and the policy merged and validated) once per call.
	 */
	private List<NewJob> newJobs(String type, List<? extends List<?>> argsList, @Nullable JobOptions options) {
		Objects.requireNonNull(type, "type must not be null");
		options = (options != null) ? options : JobOptions.none();
		HandlerDirectory.Route route = this.handlers.route(type);
		String queue = (options.queue() != null) ? options.queue() : route.queue();
		int priority = (options.priority() != null) ? options.priority() : route.priority();
		RetryPolicy own = options.partialRetry();
		int maxAttempts = effectivePolicy(route, own).maxAttempts();
		String metaJson = this.jsonMapper.writeValueAsString(options.meta());
		Instant runAt = runAt(options);
		List<NewJob> jobs = new ArrayList<>(argsList.size());
		for (List<?> args : argsList) {
			Objects.requireNonNull(args, "args must not be null");
			jobs.add(new NewJob(type, queue, priority, this.jsonMapper.writeValueAsString(args), metaJson, own, runAt,
					options.uniqueKey(), maxAttempts));
		}
		return jobs;
	}

	/**
	 * Spec §8.1: the job's own fields over its handler's policy, validated (RET-16) both over
	 * it and over the spec defaults, which is what the job falls back to on a handler whose
	 * policy they do not fit.
	 */
	private RetryPolicy effectivePolicy(HandlerDirectory.Route route, @Nullable RetryPolicy own) {
		if (own == null || own.isEmpty()) {
			return route.policy();
		}
		own.effective();
		return route.layers().over(RetryPolicyLayers.JOB, own).effective();
	}

	private @Nullable Instant runAt(JobOptions options) {
		if (options.runAt() != null) {
			return options.runAt();
		}
		return (options.delay() != null) ? this.clock.instant().plus(options.delay()) : null;
	}

}

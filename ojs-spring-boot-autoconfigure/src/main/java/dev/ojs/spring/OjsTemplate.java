package dev.ojs.spring;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyValidationException;

/**
 * Enqueues, looks up and cancels jobs. Enqueues join the caller's transaction when one is
 * active on the job store's {@link javax.sql.DataSource}, so a job is only stored if the
 * business change that asked for it commits.
 * <p>
 * Each job's retry policy is resolved at enqueue and stored with it (RET-16): the spec
 * defaults, overridden by {@code ojs.retry.*}, by the handler's {@link OjsJob @OjsJob}
 * attributes, and by {@link JobOptions.Builder#retry(RetryPolicy) per-enqueue options}, in
 * that order. An invalid result throws {@link RetryPolicyValidationException} and nothing
 * is written. Types without a handler in this application are allowed (another service may
 * handle them) and get the application's defaults.
 */
public class OjsTemplate {

	private static final Log logger = LogFactory.getLog(OjsTemplate.class);

	private final JobStore store;

	private final OjsJobRegistry registry;

	private final RetryPolicy defaultPolicy;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	/**
	 * @param store where jobs are stored
	 * @param registry the handlers of this application, for their queue, priority and
	 * policy
	 * @param defaultPolicy the application's effective default policy (spec defaults &lt;
	 * {@code ojs.retry.*})
	 * @param jsonMapper serialises arguments and metadata
	 */
	public OjsTemplate(JobStore store, OjsJobRegistry registry, RetryPolicy defaultPolicy, JsonMapper jsonMapper) {
		this(store, registry, defaultPolicy, jsonMapper, Clock.systemUTC());
	}

	OjsTemplate(JobStore store, OjsJobRegistry registry, RetryPolicy defaultPolicy, JsonMapper jsonMapper,
			Clock clock) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
		this.defaultPolicy = Objects.requireNonNull(defaultPolicy, "defaultPolicy must not be null").effective();
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
		return this.store.find(id).map(JobInfo::of);
	}

	/**
	 * Cancels a job (ojs-core.md §7.6, ojs-admin-api.md §7.3). A scheduled, available or
	 * retryable job is cancelled at once and never runs. A running job is marked
	 * {@code cancelled} at once too: its handler sees {@link JobContext#isCancelled()} (and is
	 * interrupted with {@link OjsJob#interruptOnCancel()}), and whatever it returns or throws
	 * later is not recorded, nor retried.
	 * @return whether it was cancelled; {@code false} when there is no such job or it already
	 * ended (completed, discarded, dead-lettered or cancelled): see {@link #getJob(String)}
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
		Optional<RegisteredJob> handler = this.registry.find(type);
		if (handler.isEmpty() && logger.isDebugEnabled()) {
			logger.debug("Enqueuing job type '" + type + "' that has no handler in this application");
		}
		String queue = (options.queue() != null) ? options.queue()
				: handler.map(RegisteredJob::queue).orElse(NewJob.DEFAULT_QUEUE);
		int priority = (options.priority() != null) ? options.priority()
				: handler.map(RegisteredJob::priority).orElse(0);
		RetryPolicy policy = effectivePolicy(handler.map(RegisteredJob::effectivePolicy).orElse(this.defaultPolicy),
				options);
		String metaJson = this.jsonMapper.writeValueAsString(options.meta());
		Instant runAt = runAt(options);
		List<NewJob> jobs = new ArrayList<>(argsList.size());
		for (List<?> args : argsList) {
			Objects.requireNonNull(args, "args must not be null");
			jobs.add(new NewJob(type, queue, priority, this.jsonMapper.writeValueAsString(args), metaJson, policy, runAt,
					options.uniqueKey()));
		}
		return jobs;
	}

	/** Spec §8.1: the per-enqueue partial policy's set fields win over the handler's. */
	private RetryPolicy effectivePolicy(RetryPolicy base, JobOptions options) {
		RetryPolicy perJob = options.partialRetry();
		return (perJob != null) ? perJob.mergedOver(base).effective() : base;
	}

	private @Nullable Instant runAt(JobOptions options) {
		if (options.runAt() != null) {
			return options.runAt();
		}
		return (options.delay() != null) ? this.clock.instant().plus(options.delay()) : null;
	}

}

package dev.ojs.spring;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;

import dev.ojs.job.JobState;
import dev.ojs.job.JobStore;
import dev.ojs.job.NewJob;
import dev.ojs.job.WorkflowPlace;
import dev.ojs.job.UniqueScope;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.RetryPolicyLayers;
import dev.ojs.retry.RetryPolicyValidationException;
import dev.ojs.spring.event.JobCancelledEvent;
import dev.ojs.spring.event.JobEnqueuedEvent;
import dev.ojs.spring.observation.DefaultJobEnqueueObservationConvention;
import dev.ojs.spring.observation.JobEnqueueContext;
import dev.ojs.spring.observation.JobEnqueueObservationConvention;
import dev.ojs.spring.observation.OjsObservationDocumentation;

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
 * nothing is written. So are the type and queue name ({@link OjsNames}), the options
 * ({@link JobOptionRules}) and the size of the arguments and metadata
 * ({@link #setSizeLimits JobSizeLimits}): a job breaking them throws
 * {@link OjsValidationException} naming the field, the same refusal every HTTP edge answers.
 * <p>
 * Each case has one call shape: {@link #enqueue(String)} for a job without arguments,
 * {@link #enqueue(String, Object...)} where each value is one argument,
 * {@link #enqueue(String, List, JobOptions)} with the arguments as a list and options, and
 * {@link #enqueueAll(String, List, JobOptions)} for several jobs. With an
 * {@link #setObservationRegistry observation registry}, each call is observed and the trace
 * context is stored in the jobs' {@code meta} (ojs-distributed-tracing.md §6.1).
 */
public class OjsTemplate implements ApplicationEventPublisherAware {

	private final JobStore store;

	private final HandlerDirectory handlers;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private @Nullable JobEnqueueObservationConvention observationConvention;

	private @Nullable ApplicationEventPublisher eventPublisher;

	private JobSizeLimits sizeLimits = JobSizeLimits.DEFAULTS;

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
	 * Observes every enqueue in this registry ({@link OjsObservationDocumentation#JOB_ENQUEUE});
	 * {@link ObservationRegistry#NOOP} (the default) observes none.
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry must not be null");
	}

	/** Where a {@link JobEnqueuedEvent} is published for every stored job. */
	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	/**
	 * The most a job's arguments and metadata may hold ({@link JobSizeLimits#DEFAULTS} unless
	 * set).
	 */
	public void setSizeLimits(JobSizeLimits sizeLimits) {
		this.sizeLimits = Objects.requireNonNull(sizeLimits, "sizeLimits must not be null");
	}

	/** The most a job's arguments and metadata may hold. */
	public JobSizeLimits getSizeLimits() {
		return this.sizeLimits;
	}

	/**
	 * The convention of enqueue observations, instead of
	 * {@link DefaultJobEnqueueObservationConvention}.
	 */
	public void setObservationConvention(@Nullable JobEnqueueObservationConvention observationConvention) {
		this.observationConvention = observationConvention;
	}

	/**
	 * Enqueues a job that takes no arguments, with default options.
	 * @param type the job type
	 * @return the job id
	 */
	public String enqueue(String type) {
		return enqueue(type, List.of(), JobOptions.none());
	}

	/**
	 * Enqueues a job that takes no arguments.
	 * @param type the job type
	 * @param options queue, priority, schedule, retry policy, metadata, unique key
	 * @return the job id (an existing live job's id when one of the same type has the same
	 * unique key)
	 * @throws RetryPolicyValidationException when the resulting retry policy is invalid
	 * @throws OjsValidationException when the type, queue or metadata is refused
	 */
	public String enqueue(String type, JobOptions options) {
		return enqueue(type, List.of(), options);
	}

	/**
	 * Enqueues a job with default options. Each argument is one element of the job's JSON
	 * {@code args} array; a {@code null} argument is JSON {@code null}. A single
	 * {@link Collection} argument is rejected as ambiguous, and so is a {@link JobOptions}
	 * argument: see {@link #enqueue(String, List, JobOptions)}.
	 * @param type the job type
	 * @param args its arguments, serialised to a JSON array
	 * @return the job id
	 * @throws IllegalArgumentException when the only argument is a {@code Collection}, or an
	 * argument is a {@code JobOptions}
	 */
	public String enqueue(String type, Object... args) {
		Objects.requireNonNull(args, "args must not be null: call enqueue(type) for a job without arguments");
		if (args.length == 1 && args[0] instanceof Collection<?>) {
			throw new IllegalArgumentException("enqueue(\"" + type + "\", Object...) was given a single "
					+ args[0].getClass().getSimpleName() + ", which is ambiguous. To use its elements as the job's "
					+ "arguments, call enqueue(type, list, JobOptions.none()); to pass it as the job's one argument, "
					+ "call enqueue(type, List.of(list), JobOptions.none())");
		}
		for (Object arg : args) {
			if (arg instanceof JobOptions) {
				throw new IllegalArgumentException("enqueue(\"" + type + "\", Object...) was given JobOptions as a "
						+ "job argument: call enqueue(type, List.of(arguments...), options), or enqueue(type, options) "
						+ "for a job without arguments");
			}
		}
		return enqueue(type, Arrays.asList(args), JobOptions.none());
	}

	/**
	 * Enqueues a job. Each element of {@code args} is one element of the job's JSON
	 * {@code args} array ({@code null} elements are JSON {@code null}); an empty list
	 * enqueues a job without arguments.
	 * @param type the job type
	 * @param args its arguments, serialised to a JSON array
	 * @param options queue, priority, schedule, retry policy, metadata, unique key
	 * ({@link JobOptions#none()} for none)
	 * @return the job id (an existing live job's id when one of the same type has the same
	 * unique key)
	 * @throws RetryPolicyValidationException when the resulting retry policy is invalid
	 * @throws OjsValidationException when the type, queue, arguments or metadata are refused
	 */
	public String enqueue(String type, List<?> args, JobOptions options) {
		Objects.requireNonNull(args, "args must not be null: pass List.of() for a job without arguments");
		return insert(type, List.of(args), options).get(0);
	}

	/**
	 * Enqueues one job per argument list, with the same options, in one round trip (one
	 * {@link JobStore#insert} call). Each inner list is one job's arguments, as in
	 * {@link #enqueue(String, List, JobOptions)}: an empty one is a job without arguments
	 * (so {@code Collections.nCopies(n, List.of())} enqueues {@code n} of them). A unique key
	 * in the options applies to every job, so they all resolve to one job.
	 * @param type the job type
	 * @param argsList one argument list per job
	 * @param options queue, priority, schedule, retry policy, metadata, unique key
	 * ({@link JobOptions#none()} for none)
	 * @return the job ids, in the order of {@code argsList}
	 * @throws RetryPolicyValidationException when the resulting retry policy is invalid
	 * @throws OjsValidationException when the type, queue, arguments ({@code args[i]}) or
	 * metadata are refused
	 */
	public List<String> enqueueAll(String type, List<? extends List<?>> argsList, JobOptions options) {
		Objects.requireNonNull(argsList, "argsList must not be null");
		int index = 0;
		for (List<?> args : argsList) {
			if (args == null) {
				throw new IllegalArgumentException("argsList[" + index + "] is null: pass List.of() for a job without "
						+ "arguments");
			}
			index++;
		}
		if (argsList.isEmpty()) {
			return List.of();
		}
		return insert(type, argsList, options);
	}

	/**
	 * One job of {@link #enqueueBatch(List)}.
	 * @param type the job type
	 * @param args its arguments
	 * @param options its options
	 */
	public record Enqueue(String type, List<?> args, JobOptions options) {

	}

	/**
	 * Enqueues jobs of any types, each with its own options, in one {@link JobStore#insert}:
	 * all of them or, when one is invalid or the insert fails, none (ojs-http-binding.md §9.2).
	 * @return the job ids, in order
	 * @throws RetryPolicyValidationException when a job's retry policy is invalid; nothing is
	 * written
	 * @throws OjsValidationException when a job's type, queue, arguments or metadata are
	 * refused, naming the job ({@code jobs[i].queue}); nothing is written
	 */
	public List<String> enqueueBatch(List<Enqueue> jobs) {
		Objects.requireNonNull(jobs, "jobs must not be null");
		List<NewJob> newJobs = newJobs(jobs);
		return newJobs.isEmpty() ? List.of() : published(newJobs);
	}

	/**
	 * Enqueues jobs of the workflow {@code workflowId} as {@link #enqueueBatch} does, each
	 * inserted at its place in it, with an id the store generates.
	 * @param places each job's place, in order
	 */
	List<String> enqueueWorkflow(List<Enqueue> jobs, String workflowId, List<WorkflowPlace> places) {
		List<NewJob> newJobs = newJobs(jobs);
		List<NewJob> placed = new ArrayList<>(newJobs.size());
		for (int i = 0; i < newJobs.size(); i++) {
			placed.add(newJobs.get(i).inWorkflow(workflowId, places.get(i)));
		}
		return published(placed);
	}

	/** One job per {@link Enqueue}, a refusal naming the job ({@code jobs[i].queue}). */
	private List<NewJob> newJobs(List<Enqueue> jobs) {
		List<NewJob> newJobs = new ArrayList<>(jobs.size());
		for (int i = 0; i < jobs.size(); i++) {
			Enqueue job = jobs.get(i);
			try {
				newJobs.addAll(newJobs(job.type(), List.of(job.args()), job.options(), Map.of()));
			}
			catch (OjsValidationException ex) {
				throw ex.withField("jobs[" + i + "]." + ex.getField());
			}
		}
		return newJobs;
	}

	/**
	 * Stores the jobs inside an {@link OjsObservationDocumentation#JOB_ENQUEUE enqueue
	 * observation}, whose trace context joins each job's {@code meta} (DT-001).
	 */
	private List<String> insert(String type, List<? extends List<?>> argsList, JobOptions options) {
		Objects.requireNonNull(options, "options must not be null: pass JobOptions.none() for the defaults");
		if (this.observationRegistry.isNoop()) {
			return published(newJobs(type, argsList, options, Map.of()));
		}
		JobEnqueueContext context = new JobEnqueueContext(type, argsList.size());
		return OjsObservationDocumentation.JOB_ENQUEUE
			.observation(this.observationConvention, DefaultJobEnqueueObservationConvention.INSTANCE, () -> context,
					this.observationRegistry)
			.observe(() -> {
				List<NewJob> jobs = newJobs(type, argsList, options, context.traceFields());
				String queue = jobs.get(0).queue();
				context.setQueue((queue != null) ? queue : NewJob.DEFAULT_QUEUE);
				List<String> ids = published(jobs);
				context.setJobIds(ids);
				return ids;
			});
	}

	/** Inserts the jobs and publishes a {@link JobEnqueuedEvent} for each. */
	private List<String> published(List<NewJob> jobs) {
		Instant now = this.clock.instant();
		List<String> ids = this.store.insert(jobs);
		if (this.eventPublisher != null) {
			for (int i = 0; i < ids.size(); i++) {
				this.eventPublisher.publishEvent(new JobEnqueuedEvent(this, ids.get(i), jobs.get(i), now));
			}
		}
		return ids;
	}

	/** The job with this id, if it is stored. */
	public Optional<JobInfo> getJob(String id) {
		return this.store.find(id)
			.map((job) -> job.at(this.store.now()))
			.map((job) -> JobInfo.of(job, this.handlers.layers(job),
					(job.state() == JobState.COMPLETED) ? this.store.result(id).orElse(null) : null));
	}

	/**
	 * The result of a completed job (spec README decision 28: a handler method's return
	 * value, or an ack's {@code result}), read as {@code type} with the application's mapper.
	 * @return the result, or empty when the job does not exist or has none
	 */
	public <T> Optional<T> getResult(String id, Class<T> type) {
		return this.store.result(id).map((json) -> this.jsonMapper.readValue(json, type));
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
		boolean cancelled = this.store.cancel(id);
		if (cancelled && this.eventPublisher != null) {
			getJob(id).ifPresent((job) -> this.eventPublisher.publishEvent(new JobCancelledEvent(job)));
		}
		return cancelled;
	}

	/**
	 * One job per argument list. Everything but the arguments depends only on the type and
	 * the options, so it is resolved (and the policy merged and validated) once per call.
	 * The type, the arguments, the metadata as given and the queue are checked first, in
	 * this order; {@code trace} (an observation's context) joins the metadata after.
	 */
	private List<NewJob> newJobs(String type, List<? extends List<?>> argsList, @Nullable JobOptions options,
			Map<String, String> trace) {
		OjsNames.checkType(type, "type");
		options = (options != null) ? options : JobOptions.none();
		List<String> argsJson = argsJson(argsList);
		String metaJson = this.jsonMapper.writeValueAsString(options.meta());
		this.sizeLimits.checkMetaJson(metaJson, "meta");
		if (options.queue() != null) {
			OjsNames.checkQueue(options.queue(), "queue");
		}
		JobOptionRules.check(options);
		if (options.id() != null) {
			OjsNames.checkJobId(options.id(), "id");
			if (argsList.size() != 1) {
				throw new OjsValidationException("id", "The '{field}' option names one job; " + argsList.size()
						+ " were enqueued with it.");
			}
		}
		UniqueScope uniqueScope = uniqueScope(options);
		if (!trace.isEmpty()) {
			options = options.withMeta(trace);
			metaJson = this.jsonMapper.writeValueAsString(options.meta());
		}
		HandlerDirectory.Route route = this.handlers.route(type);
		String queue = (options.queue() != null) ? options.queue() : route.queue();
		int priority = (options.priority() != null) ? options.priority() : route.priority();
		RetryPolicy own = options.partialRetry();
		int maxAttempts = effectivePolicy(route, own).maxAttempts();
		Instant runAt = runAt(options);
		Instant expiresAt = (options.expiresAt() != null) ? options.expiresAt()
				: (options.expiresIn() != null) ? this.clock.instant().plus(options.expiresIn()) : null;
		JobOptionRules.checkTimes(options, runAt, expiresAt);
		List<NewJob> jobs = new ArrayList<>(argsList.size());
		for (String args : argsJson) {
			jobs.add(new NewJob(type, queue, priority, args, metaJson, own, runAt, options.uniqueKey(), maxAttempts,
					options.pending(), expiresAt, options.id(), uniqueScope, options.timeout(),
					options.visibilityTimeout(), options.concurrencyKey(), options.sequenceKey()));
		}
		return jobs;
	}

	/** The scope of the options' unique key, or {@code null} for every live holder. */
	private static @Nullable UniqueScope uniqueScope(JobOptions options) {
		if (options.uniquePeriod() == null && options.uniqueStates().isEmpty()) {
			return null;
		}
		if (options.uniquePeriod() != null
				&& (options.uniquePeriod().isNegative() || options.uniquePeriod().isZero())) {
			throw new OjsValidationException("unique.period", "The '{field}' must be a positive duration.",
					Map.of("expected", "duration"));
		}
		if (!UniqueScope.LIVE.containsAll(options.uniqueStates())) {
			throw new OjsValidationException("unique.states",
					"The '{field}' may name the live states scheduled, available, active and retryable only.",
					Map.of("expected", "scheduled|available|active|retryable"));
		}
		return new UniqueScope(options.uniquePeriod(), options.uniqueStates());
	}

	/**
	 * Each argument list as JSON, within the size limit ({@code args}, or {@code args[i]} of
	 * several); the same list again (Collections.nCopies) is written and measured once.
	 */
	private List<String> argsJson(List<? extends List<?>> argsList) {
		List<String> argsJson = new ArrayList<>(argsList.size());
		List<?> previous = null;
		String json = null;
		for (List<?> args : argsList) {
			Objects.requireNonNull(args, "args must not be null");
			if (args != previous || json == null) {
				json = this.jsonMapper.writeValueAsString(args);
				this.sizeLimits.checkArgsJson(json, (argsList.size() == 1) ? "args" : "args[" + argsJson.size() + "]");
				previous = args;
			}
			argsJson.add(json);
		}
		return argsJson;
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

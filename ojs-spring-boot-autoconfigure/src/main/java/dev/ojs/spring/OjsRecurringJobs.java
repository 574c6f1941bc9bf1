package dev.ojs.spring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.job.JobState;
import dev.ojs.recurring.Occurrence;
import dev.ojs.recurring.OccurrenceJobs;
import dev.ojs.recurring.RecurringJobDefinition;
import dev.ojs.recurring.RecurringJobOwnershipException;
import dev.ojs.recurring.RecurringJobStore;
import dev.ojs.recurring.RecurringJobValidationException;
import dev.ojs.recurring.RecurringJobs;
import dev.ojs.recurring.StoredRecurringJob;
import dev.ojs.recurring.ZonedCronExpression;

/**
 * The recurring jobs of this application at runtime (ojs-cron.md §8): register or replace,
 * remove, pause, resume, trigger now, list. Recurring jobs are stored in the job store's database
 * and belong to the application that registered them ({@code spring.application.name}): only
 * it changes them ({@link RecurringJobOwnershipException}); every application lists them all.
 * Pause and resume persist across restarts, and a paused recurring job has no next run. The HTTP
 * binding, the Admin API and the {@code recurringjobs} actuator endpoint all go through it.
 */
public class OjsRecurringJobs {

	private final RecurringJobStore store;

	private final RecurringJobs recurringJobs;

	private final OccurrenceJobs occurrenceJobs;

	private final JsonMapper jsonMapper;

	private final @Nullable String application;

	/**
	 * @param store where recurring jobs are stored
	 * @param handlers routes each occurrence's job to its handler's queue, priority and policy
	 * @param jsonMapper serialises arguments and metadata
	 * @param application this application's name, or {@code null}
	 */
	public OjsRecurringJobs(RecurringJobStore store, HandlerDirectory handlers, JsonMapper jsonMapper,
			@Nullable String application) {
		this.store = store;
		this.occurrenceJobs = new RoutedOccurrenceJobs(handlers, jsonMapper);
		this.recurringJobs = new RecurringJobs(store, this.occurrenceJobs, application);
		this.jsonMapper = jsonMapper;
		this.application = application;
	}

	/**
	 * Registers a recurring job, or replaces the one of that name (CRON-26). Its next run is
	 * computed at once.
	 * @throws OjsValidationException naming the field when the name, type, expression or zone
	 * is invalid
	 * @throws dev.ojs.retry.RetryPolicyValidationException naming the field when a retry field
	 * is invalid (RET-16)
	 * @throws RecurringJobOwnershipException when another application owns the name
	 */
	public StoredRecurringJob register(RecurringJob job) {
		try {
			return this.recurringJobs.register(job.toDefinition(this.jsonMapper, this.application, false));
		}
		catch (RecurringJobValidationException ex) {
			OjsValidationException invalid = new OjsValidationException(ex.field(), ex.getMessage());
			invalid.initCause(ex);
			throw invalid;
		}
	}

	/**
	 * Registers the recurring jobs declared in code, and disables those this application declared
	 * before but no longer declares.
	 */
	public List<StoredRecurringJob> reconcile(List<RecurringJobDefinition> declared) {
		return this.recurringJobs.reconcile(declared);
	}

	/** Removes a recurring job; jobs it enqueued stay. {@code false} when there is none of that name. */
	public boolean remove(String name) {
		return this.recurringJobs.remove(name);
	}

	/**
	 * Pauses a recurring job until {@link #resume}: no occurrence fires meanwhile.
	 * @throws NoSuchElementException when there is none of that name
	 */
	public StoredRecurringJob pause(String name) {
		return this.recurringJobs.pause(name);
	}

	/**
	 * Resumes a paused recurring job from its next occurrence after now.
	 * @throws NoSuchElementException when there is none of that name
	 */
	public StoredRecurringJob resume(String name) {
		return this.recurringJobs.resume(name);
	}

	/**
	 * Enqueues the recurring job's job now; its schedule is unchanged.
	 * @return the job's id
	 * @throws NoSuchElementException when there is none of that name
	 */
	public String trigger(String name) {
		return this.recurringJobs.trigger(name);
	}

	public Optional<StoredRecurringJob> find(String name) {
		return this.recurringJobs.find(name);
	}

	/** Every recurring job in the database, of every application, by name. */
	public List<StoredRecurringJob> list() {
		return this.recurringJobs.list();
	}

	/**
	 * The next occurrences of a recurring job after now, by its own cron code: up to {@code count}, none
	 * while it is disabled or paused.
	 */
	public List<Instant> nextFireTimes(StoredRecurringJob stored, int count) {
		if (!stored.definition().enabled() || RecurringJobs.isPaused(stored)) {
			return List.of();
		}
		ZonedCronExpression cron = stored.definition().cronExpression();
		List<Instant> times = new ArrayList<>(count);
		Instant after = this.store.now();
		for (int i = 0; i < count; i++) {
			Occurrence occurrence = cron.next(after, stored.anchorAt());
			if (occurrence == null) {
				break;
			}
			times.add(occurrence.at());
			after = occurrence.at();
		}
		return times;
	}

	/** The state of the last job the recurring job enqueued, or {@code null} when there is none or it is gone. */
	public @Nullable JobState lastJobState(StoredRecurringJob stored) {
		return (stored.lastJobId() != null) ? this.store.jobState(stored.lastJobId()) : null;
	}

	/** The node whose evaluator fires the occurrences, while its lease holds. */
	public Optional<String> leaseHolder() {
		return this.store.leaseHolder();
	}

	/** The current instant, by the clock the recurring jobs' times are kept in. */
	public Instant now() {
		return this.store.now();
	}

	/** How an occurrence's job is built: routed like any enqueue, for the evaluator. */
	public OccurrenceJobs occurrenceJobs() {
		return this.occurrenceJobs;
	}

	/** The application this bean registers for, or {@code null}. */
	public @Nullable String application() {
		return this.application;
	}

}

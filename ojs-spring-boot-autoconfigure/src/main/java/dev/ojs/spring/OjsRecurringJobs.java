package dev.ojs.spring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.cron.CronOwnershipException;
import dev.ojs.cron.CronSchedule;
import dev.ojs.cron.CronStore;
import dev.ojs.cron.CronValidationException;
import dev.ojs.cron.Schedule;
import dev.ojs.cron.Schedules;
import dev.ojs.cron.StoredSchedule;
import dev.ojs.cron.Tick;
import dev.ojs.cron.TickJobs;
import dev.ojs.job.JobState;

/**
 * The recurring jobs of this application at runtime (ojs-cron.md §8): register or replace,
 * remove, pause, resume, trigger now, list. Schedules are stored in the job store's database
 * and belong to the application that registered them ({@code spring.application.name}): only
 * it changes them ({@link CronOwnershipException}); every application lists them all.
 * Pause and resume persist across restarts, and a paused schedule has no next run. The HTTP
 * binding, the Admin API and the {@code recurringjobs} actuator endpoint all go through it.
 */
public class OjsRecurringJobs {

	private final CronStore store;

	private final Schedules schedules;

	private final TickJobs tickJobs;

	private final JsonMapper jsonMapper;

	private final @Nullable String application;

	/**
	 * @param store where schedules are stored
	 * @param handlers routes each tick's job to its handler's queue, priority and policy
	 * @param jsonMapper serialises arguments and metadata
	 * @param application this application's name, or {@code null}
	 */
	public OjsRecurringJobs(CronStore store, HandlerDirectory handlers, JsonMapper jsonMapper,
			@Nullable String application) {
		this.store = store;
		this.tickJobs = new RecurringTickJobs(handlers, jsonMapper);
		this.schedules = new Schedules(store, this.tickJobs, application);
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
	 * @throws CronOwnershipException when another application owns the name
	 */
	public StoredSchedule register(RecurringJob job) {
		try {
			return this.schedules.register(job.toSchedule(this.jsonMapper, this.application, false));
		}
		catch (CronValidationException ex) {
			OjsValidationException invalid = new OjsValidationException(ex.field(), ex.getMessage());
			invalid.initCause(ex);
			throw invalid;
		}
	}

	/**
	 * Registers the schedules declared in code, and disables those this application declared
	 * before but no longer declares.
	 */
	public List<StoredSchedule> reconcile(List<Schedule> declared) {
		return this.schedules.reconcile(declared);
	}

	/** Removes a recurring job; jobs it enqueued stay. {@code false} when there is none of that name. */
	public boolean remove(String name) {
		return this.schedules.remove(name);
	}

	/**
	 * Pauses a recurring job until {@link #resume}: no tick fires meanwhile.
	 * @throws NoSuchElementException when there is none of that name
	 */
	public StoredSchedule pause(String name) {
		return this.schedules.pause(name);
	}

	/**
	 * Resumes a paused recurring job from its next tick after now.
	 * @throws NoSuchElementException when there is none of that name
	 */
	public StoredSchedule resume(String name) {
		return this.schedules.resume(name);
	}

	/**
	 * Enqueues the recurring job's job now; its schedule is unchanged.
	 * @return the job's id
	 * @throws NoSuchElementException when there is none of that name
	 */
	public String trigger(String name) {
		return this.schedules.trigger(name);
	}

	public Optional<StoredSchedule> find(String name) {
		return this.schedules.find(name);
	}

	/** Every recurring job in the database, of every application, by name. */
	public List<StoredSchedule> list() {
		return this.schedules.list();
	}

	/**
	 * The next ticks of a schedule after now, by its own cron code: up to {@code count}, none
	 * while it is disabled or paused.
	 */
	public List<Instant> nextFireTimes(StoredSchedule stored, int count) {
		if (!stored.schedule().enabled() || Schedules.isPaused(stored)) {
			return List.of();
		}
		CronSchedule cron = stored.schedule().schedule();
		List<Instant> times = new ArrayList<>(count);
		Instant after = this.store.now();
		for (int i = 0; i < count; i++) {
			Tick tick = cron.next(after, stored.anchorAt());
			if (tick == null) {
				break;
			}
			times.add(tick.at());
			after = tick.at();
		}
		return times;
	}

	/** The state of the last job the schedule enqueued, or {@code null} when there is none or it is gone. */
	public @Nullable JobState lastJobState(StoredSchedule stored) {
		return (stored.lastJobId() != null) ? this.store.jobState(stored.lastJobId()) : null;
	}

	/** The node whose evaluator fires the ticks, while its lease holds. */
	public Optional<String> leaseHolder() {
		return this.store.leaseHolder();
	}

	/** The current instant, by the clock the schedules' times are kept in. */
	public Instant now() {
		return this.store.now();
	}

	/** How a tick's job is built: routed like any enqueue, for the evaluator. */
	public TickJobs tickJobs() {
		return this.tickJobs;
	}

	/** The application this bean registers for, or {@code null}. */
	public @Nullable String application() {
		return this.application;
	}

}

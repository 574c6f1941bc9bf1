package dev.ojs.cron;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Registration and operation of the schedules of one application (ojs-cron.md §8): upsert
 * (CRON-26), removal, pause and resume (a paused or disabled schedule has no
 * {@code next_run_at}, CRON-28), trigger now, and reconciliation of the schedules declared in
 * code. A schedule belongs to the application that registered it: only that application
 * changes it ({@link CronOwnershipException}).
 * <p>
 * {@code enabled} is the registration's (code or configuration); pause and resume are an
 * operator's and survive re-registration at the next start.
 */
public final class Schedules {

	private final CronStore store;

	private final TickJobs jobs;

	private final @Nullable String application;

	/**
	 * @param store where schedules are stored
	 * @param jobs builds a tick's job (for {@link #trigger})
	 * @param application this application's name, or {@code null}
	 */
	public Schedules(CronStore store, TickJobs jobs, @Nullable String application) {
		this.store = store;
		this.jobs = jobs;
		this.application = application;
	}

	/**
	 * Registers a schedule, or replaces the registration of that name (CRON-26). The next tick
	 * is computed at once (CRON-07); an {@code @every} schedule first fires at its registration.
	 * An unchanged expression and zone keep the next tick and the anchor.
	 * @throws CronOwnershipException when another application owns the name
	 */
	public StoredSchedule register(Schedule schedule) {
		Schedule owned = owned(schedule);
		return this.store.save(owned.name(), (stored) -> {
			Instant now = this.store.now();
			if (stored == null) {
				return withNext(new StoredSchedule(owned, now, null, null, null, null, 0, 0, now, now), false, now);
			}
			checkOwner(stored);
			boolean retimed = owned.timingDiffers(stored.schedule());
			StoredSchedule updated = new StoredSchedule(owned, retimed ? now : stored.anchorAt(),
					retimed ? null : stored.nextRunAt(), stored.lastRunAt(), stored.lastJobId(), stored.lastOutcome(),
					stored.runCount(), stored.queuedRuns(), stored.createdAt(), now);
			return withNext(updated, isPaused(stored), now);
		});
	}

	/**
	 * Registers the schedules this application declares in code, and disables those it declared
	 * before but no longer does (they are kept, with their history).
	 * @return the declared schedules as stored
	 */
	public List<StoredSchedule> reconcile(List<Schedule> declared) {
		List<StoredSchedule> registered = new ArrayList<>();
		for (Schedule schedule : declared) {
			registered.add(register(schedule));
		}
		Set<String> names = declared.stream().map(Schedule::name).collect(Collectors.toSet());
		for (StoredSchedule stored : this.store.findAll()) {
			Schedule schedule = stored.schedule();
			if (schedule.declared() && schedule.enabled() && !names.contains(schedule.name())
					&& Objects.equals(schedule.application(), this.application)) {
				change(schedule.name(), (current) -> current.schedule().enabled()
						? withNext(copy(current, current.schedule().withEnabled(false)), isPaused(current), this.store.now())
						: current);
			}
		}
		return registered;
	}

	/**
	 * Removes a schedule; jobs it enqueued stay.
	 * @return {@code false} when there is none of that name (CRON-27)
	 */
	public boolean remove(String name) {
		Optional<StoredSchedule> stored = this.store.find(name);
		if (stored.isEmpty()) {
			return false;
		}
		checkOwner(stored.get());
		return this.store.delete(name);
	}

	/** Pauses a schedule: no tick fires until {@link #resume}; {@code next_run_at} is null (CRON-28). */
	public StoredSchedule pause(String name) {
		return change(name, (stored) -> withNext(stored, true, this.store.now()));
	}

	/** Resumes a paused schedule from its next tick after now (missed ticks do not fire). */
	public StoredSchedule resume(String name) {
		return change(name, (stored) -> withNext(stored, false, this.store.now()));
	}

	/**
	 * Enqueues the schedule's job now, outside its ticks (a paused schedule too); its next
	 * tick stays.
	 * @return the job's id
	 */
	public String trigger(String name) {
		for (int i = 0; i < 10; i++) {
			StoredSchedule stored = this.store.find(name).orElseThrow(() -> notFound(name));
			checkOwner(stored);
			Instant now = this.store.now();
			Map<String, Object> meta = new LinkedHashMap<>();
			meta.put("cron_name", name);
			meta.put("cron_triggered_at", now.toString());
			Optional<CronStore.Advanced> advanced = this.store.advance(new CronStore.Advance(name, stored.nextRunAt(),
					stored.queuedRuns(), stored.nextRunAt(), stored.queuedRuns(), now, "triggered",
					this.jobs.job(stored.schedule(), meta, stored.uniqueKey("manual-" + now)), null));
			if (advanced.isPresent() && advanced.get().jobId() != null) {
				return advanced.get().jobId();
			}
		}
		throw new IllegalStateException("Recurring job '" + name + "' kept changing; try again");
	}

	public Optional<StoredSchedule> find(String name) {
		return this.store.find(name);
	}

	/** Every schedule in the store, of every application, by name. */
	public List<StoredSchedule> list() {
		return this.store.findAll();
	}

	/** Whether an operator paused the schedule: enabled but without a next tick. */
	public static boolean isPaused(StoredSchedule stored) {
		return stored.schedule().enabled() && stored.nextRunAt() == null;
	}

	private StoredSchedule change(String name, UnaryOperator<StoredSchedule> change) {
		return this.store.save(name, (stored) -> {
			if (stored == null) {
				throw notFound(name);
			}
			checkOwner(stored);
			return change.apply(stored);
		});
	}

	/**
	 * {@code stored} with its next tick: none while disabled or paused, else the one kept or,
	 * without one, the first at or after now.
	 */
	private static StoredSchedule withNext(StoredSchedule stored, boolean paused, Instant now) {
		Instant next = null;
		int queued = 0;
		if (stored.schedule().enabled() && !paused) {
			next = stored.nextRunAt();
			queued = stored.queuedRuns();
			if (next == null) {
				Tick tick = stored.schedule().schedule().next(now.minusNanos(1000), stored.anchorAt());
				next = (tick != null) ? tick.at() : null;
			}
		}
		return new StoredSchedule(stored.schedule(), stored.anchorAt(), next, stored.lastRunAt(), stored.lastJobId(),
				stored.lastOutcome(), stored.runCount(), queued, stored.createdAt(), now);
	}

	private static StoredSchedule copy(StoredSchedule stored, Schedule schedule) {
		return new StoredSchedule(schedule, stored.anchorAt(), stored.nextRunAt(), stored.lastRunAt(), stored.lastJobId(),
				stored.lastOutcome(), stored.runCount(), stored.queuedRuns(), stored.createdAt(), stored.updatedAt());
	}

	private Schedule owned(Schedule schedule) {
		return new Schedule(schedule.name(), schedule.cron(), schedule.zone(), schedule.type(), schedule.argsJson(),
				schedule.metaJson(), schedule.queue(), schedule.priority(), schedule.retry(), schedule.overlap(),
				schedule.enabled(), schedule.description(), this.application, schedule.declared());
	}

	private void checkOwner(StoredSchedule stored) {
		String owner = stored.schedule().application();
		if (!Objects.equals(owner, this.application)) {
			throw new CronOwnershipException(stored.name(), owner, this.application);
		}
	}

	private static NoSuchElementException notFound(String name) {
		return new NoSuchElementException("No recurring job named '" + name + "'");
	}

}

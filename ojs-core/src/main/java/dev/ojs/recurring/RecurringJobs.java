package dev.ojs.recurring;

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
 * Registration and operation of the recurring jobs of one application (ojs-cron.md §8): upsert
 * (CRON-26), removal, pause and resume (a paused or disabled recurring job has no
 * {@code next_run_at}, CRON-28), trigger now, and reconciliation of the recurring jobs declared in
 * code. A recurring job belongs to the application that registered it: only that application
 * changes it ({@link RecurringJobOwnershipException}).
 * <p>
 * {@code enabled} is the registration's (code or configuration); pause and resume are an
 * operator's and survive re-registration at the next start.
 */
public final class RecurringJobs {

	private final RecurringJobStore store;

	private final OccurrenceJobs jobs;

	private final @Nullable String application;

	/**
	 * @param store where recurring jobs are stored
	 * @param jobs builds an occurrence's job (for {@link #trigger})
	 * @param application this application's name, or {@code null}
	 */
	public RecurringJobs(RecurringJobStore store, OccurrenceJobs jobs, @Nullable String application) {
		this.store = store;
		this.jobs = jobs;
		this.application = application;
	}

	/**
	 * Registers a recurring job, or replaces the registration of that name (CRON-26). The next occurrence
	 * is computed at once (CRON-07); an {@code @every} recurring job first fires at its registration.
	 * An unchanged expression and zone keep the next occurrence and the anchor.
	 * @throws RecurringJobOwnershipException when another application owns the name
	 */
	public StoredRecurringJob register(RecurringJobDefinition definition) {
		RecurringJobDefinition owned = owned(definition);
		return this.store.save(owned.name(), (stored) -> {
			Instant now = this.store.now();
			if (stored == null) {
				return withNext(new StoredRecurringJob(owned, now, null, null, null, null, 0, 0, now, now), false, now);
			}
			checkOwner(stored);
			boolean retimed = owned.timingDiffers(stored.definition());
			StoredRecurringJob updated = new StoredRecurringJob(owned, retimed ? now : stored.anchorAt(),
					retimed ? null : stored.nextRunAt(), stored.lastRunAt(), stored.lastJobId(), stored.lastOutcome(),
					stored.runCount(), stored.queuedRuns(), stored.createdAt(), now);
			return withNext(updated, isPaused(stored), now);
		});
	}

	/**
	 * Registers the recurring jobs this application declares in code, and disables those it declared
	 * before but no longer does (they are kept, with their history).
	 * @return the declared recurring jobs as stored
	 */
	public List<StoredRecurringJob> reconcile(List<RecurringJobDefinition> declared) {
		List<StoredRecurringJob> registered = new ArrayList<>();
		for (RecurringJobDefinition definition : declared) {
			registered.add(register(definition));
		}
		Set<String> names = declared.stream().map(RecurringJobDefinition::name).collect(Collectors.toSet());
		for (StoredRecurringJob stored : this.store.findAll()) {
			RecurringJobDefinition definition = stored.definition();
			if (definition.declared() && definition.enabled() && !names.contains(definition.name())
					&& Objects.equals(definition.application(), this.application)) {
				change(definition.name(), (current) -> current.definition().enabled()
						? withNext(copy(current, current.definition().withEnabled(false)), isPaused(current),
						this.store.now()) : current);
			}
		}
		return registered;
	}

	/**
	 * Removes a recurring job; jobs it enqueued stay.
	 * @return {@code false} when there is none of that name (CRON-27)
	 */
	public boolean remove(String name) {
		Optional<StoredRecurringJob> stored = this.store.find(name);
		if (stored.isEmpty()) {
			return false;
		}
		checkOwner(stored.get());
		return this.store.delete(name);
	}

	/** Pauses a recurring job: no occurrence fires until {@link #resume}; {@code next_run_at} is null (CRON-28). */
	public StoredRecurringJob pause(String name) {
		return change(name, (stored) -> withNext(stored, true, this.store.now()));
	}

	/** Resumes a paused recurring job from its next occurrence after now (missed occurrences do not fire). */
	public StoredRecurringJob resume(String name) {
		return change(name, (stored) -> withNext(stored, false, this.store.now()));
	}

	/**
	 * Enqueues the recurring job's job now, outside its occurrences (a paused recurring job too); its next
	 * occurrence stays.
	 * @return the job's id
	 */
	public String trigger(String name) {
		for (int i = 0; i < 10; i++) {
			StoredRecurringJob stored = this.store.find(name).orElseThrow(() -> notFound(name));
			checkOwner(stored);
			Instant now = this.store.now();
			Map<String, Object> meta = new LinkedHashMap<>();
			meta.put("cron_name", name);
			meta.put("cron_triggered_at", now.toString());
			Optional<RecurringJobStore.Advanced> advanced = this.store.advance(new RecurringJobStore.Advance(name,
					stored.nextRunAt(), stored.queuedRuns(), stored.nextRunAt(), stored.queuedRuns(), now, "triggered",
					this.jobs.job(stored.definition(), meta, stored.uniqueKey("manual-" + now)), null));
			if (advanced.isPresent() && advanced.get().jobId() != null) {
				return advanced.get().jobId();
			}
		}
		throw new IllegalStateException("Recurring job '" + name + "' kept changing; try again");
	}

	public Optional<StoredRecurringJob> find(String name) {
		return this.store.find(name);
	}

	/** Every recurring job in the store, of every application, by name. */
	public List<StoredRecurringJob> list() {
		return this.store.findAll();
	}

	/** Whether an operator paused the recurring job: enabled but without a next occurrence. */
	public static boolean isPaused(StoredRecurringJob stored) {
		return stored.definition().enabled() && stored.nextRunAt() == null;
	}

	private StoredRecurringJob change(String name, UnaryOperator<StoredRecurringJob> change) {
		return this.store.save(name, (stored) -> {
			if (stored == null) {
				throw notFound(name);
			}
			checkOwner(stored);
			return change.apply(stored);
		});
	}

	/**
	 * {@code stored} with its next occurrence: none while disabled or paused, else the one kept or,
	 * without one, the first at or after now.
	 */
	private static StoredRecurringJob withNext(StoredRecurringJob stored, boolean paused, Instant now) {
		Instant next = null;
		int queued = 0;
		if (stored.definition().enabled() && !paused) {
			next = stored.nextRunAt();
			queued = stored.queuedRuns();
			if (next == null) {
				Occurrence occurrence = stored.definition().cronExpression().next(now.minusNanos(1000),
						stored.anchorAt());
				next = (occurrence != null) ? occurrence.at() : null;
			}
		}
		return new StoredRecurringJob(stored.definition(), stored.anchorAt(), next, stored.lastRunAt(),
				stored.lastJobId(), stored.lastOutcome(), stored.runCount(), queued, stored.createdAt(), now);
	}

	private static StoredRecurringJob copy(StoredRecurringJob stored, RecurringJobDefinition definition) {
		return new StoredRecurringJob(definition, stored.anchorAt(), stored.nextRunAt(), stored.lastRunAt(),
				stored.lastJobId(), stored.lastOutcome(), stored.runCount(), stored.queuedRuns(), stored.createdAt(),
				stored.updatedAt());
	}

	private RecurringJobDefinition owned(RecurringJobDefinition definition) {
		return new RecurringJobDefinition(definition.name(), definition.cron(), definition.zone(), definition.type(),
				definition.argsJson(), definition.metaJson(), definition.queue(), definition.priority(),
				definition.retry(), definition.overlap(), definition.enabled(), definition.description(),
				this.application, definition.declared());
	}

	private void checkOwner(StoredRecurringJob stored) {
		String owner = stored.definition().application();
		if (!Objects.equals(owner, this.application)) {
			throw new RecurringJobOwnershipException(stored.name(), owner, this.application);
		}
	}

	private static NoSuchElementException notFound(String name) {
		return new NoSuchElementException("No recurring job named '" + name + "'");
	}

}

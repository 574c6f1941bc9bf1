package dev.ojs.recurring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;
import dev.ojs.job.NewJob;
import dev.ojs.worker.PeriodicTask;

/**
 * Turns due occurrences into jobs (ojs-cron.md §7.3), on a thread of its own, once per
 * {@link RecurringJobSettings#interval()} (at least a second, CRON-24). Every node runs one; only the
 * holder of the lease evaluates (CRON-21), renewing it as it goes and stopping when a
 * renewal fails (CRON-23); when the holder dies its lease expires and another node takes
 * over (CRON-22).
 * <p>
 * The lease keeps evaluators from working in vain; exactly one job per occurrence comes from the
 * store: each occurrence's job is inserted in the transaction that moves the recurring job's
 * {@code next_run_at} on by compare-and-set, so a second evaluator (a lease lost during a
 * pause) loses the compare-and-set and writes nothing.
 * <p>
 * Only recurring jobs that are due are read (by the index on {@code next_run_at}); their occurrences are
 * committed {@value #OCCURRENCES_PER_TRANSACTION} at a time ({@link RecurringJobStore#advanceAll}). Missed occurrences
 * fire once (CRON-25): the job carries the first missed occurrence, and {@code next_run_at} moves to
 * the first occurrence after now.
 */
public final class RecurringJobEvaluator {

	/**
	 * Occurrences waiting for their previous job (overlap {@code enqueue}) beyond which a warning is logged
	 * (CRON-S04).
	 */
	static final int QUEUED_WARNING = 2;

	private static final int PARSED_CACHE_SIZE = 10_000;

	/** Due occurrences committed together: one commit (one WAL flush) for many occurrences. */
	static final int OCCURRENCES_PER_TRANSACTION = 100;

	private static final Log logger = LogFactory.getLog(RecurringJobEvaluator.class);

	private final RecurringJobStore store;

	private final OccurrenceJobs jobs;

	private final RecurringJobListener listener;

	private final RecurringJobSettings settings;

	private final PeriodicTask task;

	private final Map<String, ZonedCronExpression> parsed = new HashMap<>();

	private volatile boolean leader;

	private volatile @Nullable Instant lastEvaluation;

	private volatile @Nullable Instant startedAt;

	/** {@link System#nanoTime()} of the last lease taken or renewed. */
	private long leaseRenewedNanos;

	public RecurringJobEvaluator(RecurringJobStore store, OccurrenceJobs jobs, RecurringJobListener listener,
			RecurringJobSettings settings) {
		this.store = store;
		this.jobs = jobs;
		this.listener = listener;
		this.settings = settings;
		// on the clock: occurrences fall on whole seconds, and a drifting delay would reach them later and later
		this.task = PeriodicTask.onTheClock("ojs-cron-" + settings.nodeId(), this::evaluate, settings.interval());
	}

	public void start() {
		this.startedAt = this.store.now();
		this.task.start();
	}

	/** When this node's evaluation was started (the store's clock), or {@code null} before. */
	public @Nullable Instant startedAt() {
		return this.startedAt;
	}

	/**
	 * Stops evaluating and gives the lease up if this node holds it, so another node takes over at its
	 * next evaluation instead of after the lease's length. Released even when the last evaluation did not
	 * learn that it holds the lease (interrupted by this stop after its renewal committed): the store
	 * releases only this node's lease.
	 */
	public void stop(Duration timeout) {
		this.task.stop(timeout);
		this.leader = false;
		try {
			this.store.releaseLease(this.settings.nodeId());
		}
		catch (RuntimeException ex) {
			logger.warn("OJS recurring-job evaluator on " + this.settings.nodeId()
					+ " could not give its lease up; another node takes over when it expires: " + ex);
		}
	}

	public RecurringJobSettings settings() {
		return this.settings;
	}

	/** Whether this node held the lease at its last evaluation. */
	public boolean isLeader() {
		return this.leader;
	}

	/** When this node last finished an evaluation (as holder of the lease or not), or {@code null}. */
	public @Nullable Instant lastEvaluation() {
		return this.lastEvaluation;
	}

	/**
	 * One evaluation, as the periodic thread runs it: takes or renews the lease, then enqueues
	 * the job of every due occurrence and of every waiting occurrence whose previous job finished.
	 * @return the occurrences handled (jobs enqueued and occurrences skipped or queued)
	 */
	public synchronized int evaluate() {
		int handled = 0;
		if (renewLease()) {
			handled += evaluateQueued();
			Instant now = this.store.now();
			List<StoredRecurringJob> due;
			do {
				due = this.store.findDue(now, this.settings.batchSize());
				List<Pending> pending = new ArrayList<>();
				for (StoredRecurringJob stored : due) {
					if (!keepLease()) {
						return handled;
					}
					Pending occurrence;
					try {
						occurrence = evaluate(stored, now);
					}
					catch (RuntimeException ex) {
						// the occurrences before this one are not held back by it
						advance(pending);
						throw ex;
					}
					if (occurrence != null) {
						pending.add(occurrence);
					}
					if (pending.size() == OCCURRENCES_PER_TRANSACTION) {
						handled += advance(pending);
						pending.clear();
					}
				}
				handled += advance(pending);
			}
			while (due.size() == this.settings.batchSize());
		}
		this.lastEvaluation = this.store.now();
		return handled;
	}

	private boolean renewLease() {
		boolean held = this.store.holdLease(this.settings.nodeId(), this.settings.leaseTtl());
		if (held != this.leader) {
			logger.info("OJS recurring-job evaluator on " + this.settings.nodeId() + (held ? " took" : " lost")
					+ " the lease");
		}
		this.leader = held;
		if (held) {
			this.leaseRenewedNanos = System.nanoTime();
		}
		return held;
	}

	/** Renews the lease once a third of it has passed; {@code false} when it is lost (CRON-23). */
	private boolean keepLease() {
		long third = this.settings.leaseTtl().toNanos() / 3;
		return System.nanoTime() - this.leaseRenewedNanos < third || renewLease();
	}

	/** One due recurring job's occurrence, to be advanced; then {@link Pending#done} tells of it. */
	private @Nullable Pending evaluate(StoredRecurringJob stored, Instant now) {
		RecurringJobDefinition definition = stored.definition();
		Instant occurrenceAt = stored.nextRunAt();
		if (occurrenceAt == null) {
			return null;
		}
		ZonedCronExpression cron = parse(definition);
		Occurrence next = cron.next(now, stored.anchorAt());
		Instant nextAt = (next != null) ? next.at() : null;
		String activeJob = unfinishedPrevious(stored);
		boolean overlaps = activeJob != null || stored.queuedRuns() > 0;
		Consumer<RecurringJobStore.Advanced> done;
		RecurringJobStore.Advance advance;
		if (overlaps && definition.overlap() == OverlapPolicy.SKIP) {
			advance = advance(stored, nextAt, stored.queuedRuns(), occurrenceAt,
					RecurringJobListener.Skipped.OVERLAP_SKIP, null, null);
			done = (advanced) -> skipped(definition, RecurringJobListener.Skipped.OVERLAP_SKIP, activeJob,
					occurrenceAt);
		}
		else if (overlaps && definition.overlap() == OverlapPolicy.ENQUEUE) {
			int queued = stored.queuedRuns() + 1;
			advance = advance(stored, nextAt, queued, occurrenceAt, "overlap_enqueue", null, null);
			done = (advanced) -> {
				if (queued > QUEUED_WARNING) {
					logger.warn("OJS recurring job '" + definition.name() + "' has " + queued
							+ " occurrences waiting for its previous job " + activeJob + " (overlap policy enqueue)");
				}
			};
		}
		else {
			String cancel = (definition.overlap() == OverlapPolicy.CANCEL_PREVIOUS) ? activeJob : null;
			advance = advance(stored, nextAt, stored.queuedRuns(), occurrenceAt, "triggered",
					job(stored, cron.localTime(occurrenceAt), occurrenceAt), cancel);
			done = (advanced) -> triggered(definition, advanced, occurrenceAt);
		}
		return new Pending(advance, done.andThen((advanced) -> dstSkipped(stored, cron, occurrenceAt)));
	}

	/**
	 * Advances the occurrences (committed together where the store can) and tells of each that
	 * advanced.
	 * @return the occurrences advanced; the others were handled by another evaluator first
	 */
	private int advance(List<Pending> pending) {
		if (pending.isEmpty()) {
			return 0;
		}
		List<Optional<RecurringJobStore.Advanced>> outcomes = this.store
			.advanceAll(pending.stream().map(Pending::advance).toList());
		int handled = 0;
		for (int i = 0; i < pending.size(); i++) {
			Optional<RecurringJobStore.Advanced> advanced = outcomes.get(i);
			if (advanced.isPresent()) {
				pending.get(i).done().accept(advanced.get());
				handled++;
			}
		}
		return handled;
	}

	/** An occurrence's writes, and what to tell once they committed. */
	private record Pending(RecurringJobStore.Advance advance, Consumer<RecurringJobStore.Advanced> done) {
	}

	/**
	 * {@code cron.skipped} ({@code dst_skip}) for the local times a spring-forward removed
	 * between the recurring job's previous occurrence (or registration) and this one (CRON-16, CRON-30).
	 */
	private void dstSkipped(StoredRecurringJob stored, ZonedCronExpression cron, Instant occurrenceAt) {
		Instant previous = (stored.lastRunAt() != null) ? stored.lastRunAt() : stored.createdAt();
		Occurrence occurrence = cron.next(previous, stored.anchorAt());
		if (occurrence == null || !occurrence.at().equals(occurrenceAt)) {
			return;
		}
		for (LocalDateTime skipped : occurrence.dstSkipped()) {
			skipped(stored.definition(), RecurringJobListener.Skipped.DST_SKIP, null,
					skipped.atZone(cron.zone()).toInstant());
		}
	}

	/**
	 * Recurring jobs whose occurrences wait for the previous job (overlap {@code enqueue}): one job each once it
	 * finished.
	 */
	private int evaluateQueued() {
		int handled = 0;
		for (StoredRecurringJob stored : this.store.findQueued(this.settings.batchSize())) {
			if (stored.nextRunAt() == null || unfinishedPrevious(stored) != null) {
				continue;
			}
			Instant now = this.store.now();
			Optional<RecurringJobStore.Advanced> advanced = this.store.advance(advance(stored, stored.nextRunAt(),
					stored.queuedRuns() - 1, now, "triggered", job(stored, "queued-" + (stored.runCount() + 1), now), null));
			advanced.ifPresent((done) -> triggered(stored.definition(), done, now));
			handled += advanced.isPresent() ? 1 : 0;
		}
		return handled;
	}

	private static RecurringJobStore.Advance advance(StoredRecurringJob stored, @Nullable Instant nextAt,
			int queuedRuns, Instant occurrenceAt, String outcome, @Nullable NewJob job, @Nullable String cancelJobId) {
		return new RecurringJobStore.Advance(stored.name(), stored.nextRunAt(), stored.queuedRuns(), nextAt, queuedRuns,
				occurrenceAt, outcome, job, cancelJobId);
	}

	private NewJob job(StoredRecurringJob stored, String localOccurrence, Instant occurrenceAt) {
		Map<String, Object> meta = new LinkedHashMap<>();
		meta.put("cron_name", stored.name());
		meta.put("cron_triggered_at", occurrenceAt.truncatedTo(ChronoUnit.MILLIS).toString());
		return this.jobs.job(stored.definition(), meta, stored.uniqueKey(localOccurrence));
	}

	/** The previous job's id while it is unfinished (ojs spec README item 15: any unfinished state). */
	private @Nullable String unfinishedPrevious(StoredRecurringJob stored) {
		String previous = stored.lastJobId();
		if (previous == null) {
			return null;
		}
		JobState state = this.store.jobState(previous);
		return (state != null && !state.isTerminal()) ? previous : null;
	}

	private ZonedCronExpression parse(RecurringJobDefinition definition) {
		String key = definition.cron() + '\u0000' + definition.zone();
		ZonedCronExpression cron = this.parsed.get(key);
		if (cron == null) {
			if (this.parsed.size() >= PARSED_CACHE_SIZE) {
				this.parsed.clear();
			}
			cron = definition.cronExpression();
			this.parsed.put(key, cron);
		}
		return cron;
	}

	private void triggered(RecurringJobDefinition definition, RecurringJobStore.Advanced advanced,
			Instant occurrenceAt) {
		String jobId = advanced.jobId();
		if (jobId == null) {
			return;
		}
		RecurringJobListener.Triggered event = new RecurringJobListener.Triggered(definition.name(), definition.cron(),
				definition.zone(), jobId, definition.type(), advanced.runCount(), occurrenceAt, this.store.now());
		notify(() -> this.listener.triggered(event));
	}

	private void skipped(RecurringJobDefinition definition, String reason, @Nullable String activeJobId,
			Instant occurrenceAt) {
		RecurringJobListener.Skipped event = new RecurringJobListener.Skipped(definition.name(), definition.cron(),
				definition.zone(), reason, activeJobId, occurrenceAt);
		notify(() -> this.listener.skipped(event));
	}

	private static void notify(Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logger.warn("OJS recurring job listener failed: " + ex, ex);
		}
	}

}

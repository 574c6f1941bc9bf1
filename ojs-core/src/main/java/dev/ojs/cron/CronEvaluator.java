package dev.ojs.cron;

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
 * Turns due ticks into jobs (ojs-cron.md §7.3), on a thread of its own, once per
 * {@link CronSettings#interval()} (at least a second, CRON-24). Every node runs one; only the
 * holder of the lease evaluates (CRON-21), renewing it as it goes and stopping when a
 * renewal fails (CRON-23); when the holder dies its lease expires and another node takes
 * over (CRON-22).
 * <p>
 * The lease keeps evaluators from working in vain; exactly one job per tick comes from the
 * store: each tick's job is inserted in the transaction that moves the schedule's
 * {@code next_run_at} on by compare-and-set, so a second evaluator (a lease lost during a
 * pause) loses the compare-and-set and writes nothing.
 * <p>
 * Only schedules that are due are read (by the index on {@code next_run_at}); their ticks are
 * committed {@value #TICKS_PER_TRANSACTION} at a time ({@link CronStore#advanceAll}). Missed ticks
 * fire once (CRON-25): the job carries the first missed tick, and {@code next_run_at} moves to
 * the first tick after now.
 */
public final class CronEvaluator {

	/** Ticks waiting for their previous job (overlap {@code enqueue}) beyond which a warning is logged (CRON-S04). */
	static final int QUEUED_WARNING = 2;

	private static final int PARSED_CACHE_SIZE = 10_000;

	/** Due ticks committed together: one commit (one WAL flush) for many ticks. */
	static final int TICKS_PER_TRANSACTION = 100;

	private static final Log logger = LogFactory.getLog(CronEvaluator.class);

	private final CronStore store;

	private final TickJobs jobs;

	private final CronEventListener listener;

	private final CronSettings settings;

	private final PeriodicTask task;

	private final Map<String, CronSchedule> parsed = new HashMap<>();

	private volatile boolean leader;

	private volatile @Nullable Instant lastEvaluation;

	private volatile @Nullable Instant startedAt;

	/** {@link System#nanoTime()} of the last lease taken or renewed. */
	private long leaseRenewedNanos;

	public CronEvaluator(CronStore store, TickJobs jobs, CronEventListener listener, CronSettings settings) {
		this.store = store;
		this.jobs = jobs;
		this.listener = listener;
		this.settings = settings;
		// on the clock: ticks fall on whole seconds, and a drifting delay would reach them later and later
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

	/** Stops evaluating and gives the lease up, so another node takes over at once. */
	public void stop(Duration timeout) {
		this.task.stop(timeout);
		if (this.leader) {
			this.leader = false;
			this.store.releaseLease(this.settings.nodeId());
		}
	}

	public CronSettings settings() {
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
	 * the job of every due tick and of every waiting tick whose previous job finished.
	 * @return the ticks handled (jobs enqueued and ticks skipped or queued)
	 */
	public synchronized int evaluate() {
		int handled = 0;
		if (renewLease()) {
			handled += evaluateQueued();
			Instant now = this.store.now();
			List<StoredSchedule> due;
			do {
				due = this.store.findDue(now, this.settings.batchSize());
				List<Pending> pending = new ArrayList<>();
				for (StoredSchedule schedule : due) {
					if (!keepLease()) {
						return handled;
					}
					Pending tick;
					try {
						tick = evaluate(schedule, now);
					}
					catch (RuntimeException ex) {
						// the ticks before this one are not held back by it
						advance(pending);
						throw ex;
					}
					if (tick != null) {
						pending.add(tick);
					}
					if (pending.size() == TICKS_PER_TRANSACTION) {
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
			logger.info("OJS cron evaluator on " + this.settings.nodeId() + (held ? " took" : " lost") + " the lease");
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

	/** One due schedule's tick, to be advanced; then {@link Pending#done} tells of it. */
	private @Nullable Pending evaluate(StoredSchedule stored, Instant now) {
		Schedule schedule = stored.schedule();
		Instant tickAt = stored.nextRunAt();
		if (tickAt == null) {
			return null;
		}
		CronSchedule cron = parse(schedule);
		Tick next = cron.next(now, stored.anchorAt());
		Instant nextAt = (next != null) ? next.at() : null;
		String activeJob = unfinishedPrevious(stored);
		boolean overlaps = activeJob != null || stored.queuedRuns() > 0;
		Consumer<CronStore.Advanced> done;
		CronStore.Advance advance;
		if (overlaps && schedule.overlap() == OverlapPolicy.SKIP) {
			advance = advance(stored, nextAt, stored.queuedRuns(), tickAt, CronEventListener.Skipped.OVERLAP_SKIP, null,
					null);
			done = (advanced) -> skipped(schedule, CronEventListener.Skipped.OVERLAP_SKIP, activeJob, tickAt);
		}
		else if (overlaps && schedule.overlap() == OverlapPolicy.ENQUEUE) {
			int queued = stored.queuedRuns() + 1;
			advance = advance(stored, nextAt, queued, tickAt, "overlap_enqueue", null, null);
			done = (advanced) -> {
				if (queued > QUEUED_WARNING) {
					logger.warn("OJS recurring job '" + schedule.name() + "' has " + queued
							+ " ticks waiting for its previous job " + activeJob + " (overlap policy enqueue)");
				}
			};
		}
		else {
			String cancel = (schedule.overlap() == OverlapPolicy.CANCEL_PREVIOUS) ? activeJob : null;
			advance = advance(stored, nextAt, stored.queuedRuns(), tickAt, "triggered",
					job(stored, cron.localTime(tickAt), tickAt), cancel);
			done = (advanced) -> triggered(schedule, advanced, tickAt);
		}
		return new Pending(advance, done.andThen((advanced) -> dstSkipped(stored, cron, tickAt)));
	}

	/**
	 * Advances the ticks (committed together where the store can) and tells of each that
	 * advanced.
	 * @return the ticks advanced; the others were handled by another evaluator first
	 */
	private int advance(List<Pending> pending) {
		if (pending.isEmpty()) {
			return 0;
		}
		List<Optional<CronStore.Advanced>> outcomes = this.store
			.advanceAll(pending.stream().map(Pending::advance).toList());
		int handled = 0;
		for (int i = 0; i < pending.size(); i++) {
			Optional<CronStore.Advanced> advanced = outcomes.get(i);
			if (advanced.isPresent()) {
				pending.get(i).done().accept(advanced.get());
				handled++;
			}
		}
		return handled;
	}

	/** A tick's writes, and what to tell once they committed. */
	private record Pending(CronStore.Advance advance, Consumer<CronStore.Advanced> done) {
	}

	/**
	 * {@code cron.skipped} ({@code dst_skip}) for the local times a spring-forward removed
	 * between the schedule's previous tick (or registration) and this one (CRON-16, CRON-30).
	 */
	private void dstSkipped(StoredSchedule stored, CronSchedule cron, Instant tickAt) {
		Instant previous = (stored.lastRunAt() != null) ? stored.lastRunAt() : stored.createdAt();
		Tick tick = cron.next(previous, stored.anchorAt());
		if (tick == null || !tick.at().equals(tickAt)) {
			return;
		}
		for (LocalDateTime skipped : tick.dstSkipped()) {
			skipped(stored.schedule(), CronEventListener.Skipped.DST_SKIP, null, skipped.atZone(cron.zone()).toInstant());
		}
	}

	/** Schedules whose ticks wait for the previous job (overlap {@code enqueue}): one job each once it finished. */
	private int evaluateQueued() {
		int handled = 0;
		for (StoredSchedule stored : this.store.findQueued(this.settings.batchSize())) {
			if (stored.nextRunAt() == null || unfinishedPrevious(stored) != null) {
				continue;
			}
			Instant now = this.store.now();
			Optional<CronStore.Advanced> advanced = this.store.advance(advance(stored, stored.nextRunAt(),
					stored.queuedRuns() - 1, now, "triggered", job(stored, "queued-" + (stored.runCount() + 1), now), null));
			advanced.ifPresent((done) -> triggered(stored.schedule(), done, now));
			handled += advanced.isPresent() ? 1 : 0;
		}
		return handled;
	}

	private static CronStore.Advance advance(StoredSchedule stored, @Nullable Instant nextAt, int queuedRuns,
			Instant tickAt, String outcome, @Nullable NewJob job, @Nullable String cancelJobId) {
		return new CronStore.Advance(stored.name(), stored.nextRunAt(), stored.queuedRuns(), nextAt, queuedRuns, tickAt,
				outcome, job, cancelJobId);
	}

	private NewJob job(StoredSchedule stored, String localTick, Instant tickAt) {
		Map<String, Object> meta = new LinkedHashMap<>();
		meta.put("cron_name", stored.name());
		meta.put("cron_triggered_at", tickAt.truncatedTo(ChronoUnit.MILLIS).toString());
		return this.jobs.job(stored.schedule(), meta, stored.uniqueKey(localTick));
	}

	/** The previous job's id while it is unfinished (ojs spec README item 15: any unfinished state). */
	private @Nullable String unfinishedPrevious(StoredSchedule stored) {
		String previous = stored.lastJobId();
		if (previous == null) {
			return null;
		}
		JobState state = this.store.jobState(previous);
		return (state != null && !state.isTerminal()) ? previous : null;
	}

	private CronSchedule parse(Schedule schedule) {
		String key = schedule.cron() + '\u0000' + schedule.zone();
		CronSchedule cron = this.parsed.get(key);
		if (cron == null) {
			if (this.parsed.size() >= PARSED_CACHE_SIZE) {
				this.parsed.clear();
			}
			cron = schedule.schedule();
			this.parsed.put(key, cron);
		}
		return cron;
	}

	private void triggered(Schedule schedule, CronStore.Advanced advanced, Instant tickAt) {
		String jobId = advanced.jobId();
		if (jobId == null) {
			return;
		}
		CronEventListener.Triggered event = new CronEventListener.Triggered(schedule.name(), schedule.cron(),
				schedule.zone(), jobId, schedule.type(), advanced.runCount(), tickAt, this.store.now());
		notify(() -> this.listener.triggered(event));
	}

	private void skipped(Schedule schedule, String reason, @Nullable String activeJobId, Instant tickAt) {
		CronEventListener.Skipped event = new CronEventListener.Skipped(schedule.name(), schedule.cron(),
				schedule.zone(), reason, activeJobId, tickAt);
		notify(() -> this.listener.skipped(event));
	}

	private static void notify(Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logger.warn("OJS cron event listener failed: " + ex, ex);
		}
	}

}

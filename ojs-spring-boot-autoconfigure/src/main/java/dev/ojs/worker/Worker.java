package dev.ojs.worker;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.AttemptFailure;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.job.Timestamps;
import dev.ojs.job.Job;
import dev.ojs.retry.JobError;

/**
 * The worker engine of one node: claims due jobs of the registered types from every queue
 * it serves, runs them on bounded per-queue thread pools, and stores each attempt's outcome
 * exactly as the OJS retry policy says.
 * <ul>
 * <li>Claiming: the served queues are the configured ones ({@link WorkerSettings#queues()})
 * plus each handler's queue (with {@link WorkerSettings#defaultConcurrency()} unless configured);
 * one {@link QueuePoller} per served queue claims every registered type, since a job's queue
 * is its own ({@link HandlerRegistration#queue()} is only the default). Claims are batched
 * and sized to free slots (per queue, and per type where a registration sets a concurrency:
 * that limit holds per node, across all queues), with adaptive polling, woken by PostgreSQL
 * {@code LISTEN/NOTIFY} on inserts and at each known due time of a delayed job or retry.</li>
 * <li>Outcomes: a {@link Completer} thread writes completions and failures in batches, one
 * statement each, guarded by attempt and owner; then the {@link JobEventListener} is told.
 * Failures go through {@link dev.ojs.retry.RetryPolicy#decide RetryPolicy.decide} with the
 * {@link RetryDelayOverride} applied and the error appended to the history.</li>
 * <li>Reservations (spec §9): a heartbeat thread of its own extends the reservations of
 * every attempt it holds whose remaining time has dropped below two thirds of its visibility
 * timeout (checked every third of the shortest timeout), and warns about an attempt whose
 * reservation is gone (reaped: its outcome will be rejected). On every node a reaper, on
 * the maintenance thread, turns expired reservations into failed attempts of type
 * {@code visibility_timeout} (RET-12), at most {@value #MAX_REAP_BATCHES} batches of
 * {@value #REAP_BATCH} per run. Retention pruning runs there too, every
 * {@link RetentionSettings#pruneInterval()}, for at most
 * {@link JdbcJobStore#PRUNE_BUDGET} per run.</li>
 * <li>Shutdown ({@link #stop()}): stop claiming; release claimed attempts that have not
 * started (back to {@code available}, attempt not consumed); let running handlers finish
 * within the grace period; record those still running as failed with error type
 * {@code shutdown} (retried per policy, possibly by another node), an outcome for the
 * completer like any other, and interrupt them; write every pending outcome, retrying
 * transient errors for the rest of the grace period but at least 5 s.</li>
 * </ul>
 * Completed jobs are kept for {@link RetentionSettings#completed()} and then pruned, or
 * deleted on completion when that retention is zero (the fastest setting).
 * <p>
 * Threads: the pollers, the completer, the heartbeat and maintenance threads and the
 * PostgreSQL listener are not daemon threads, so a worker-only application (no web server)
 * keeps running until the worker is stopped; {@link #stop()} ends them all. Handler threads
 * are daemon threads. A worker thread survives anything it catches, {@link Error}s included,
 * except a {@link VirtualMachineError}. At start the worker warns when the data source is a
 * HikariCP pool smaller than the connections it may use at once.
 */
public class Worker {

	private static final Log logger = LogFactory.getLog(Worker.class);

	private static final int REAP_BATCH = 100;

	private static final int MAX_REAP_BATCHES = 10;

	private static final Duration STOP_THREADS_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration MIN_MAINTENANCE_INTERVAL = Duration.ofMillis(10);

	private static final Duration MAX_REAP_INTERVAL = Duration.ofSeconds(30);

	private final WorkerStore store;

	private final Map<String, HandlerRegistration> registrations;

	private final WorkerSettings settings;

	private final String nodeId;

	private final Listeners listeners;

	private final FailurePlanner planner;

	private final Map<String, Integer> queues;

	private final Map<String, Execution> executions = new ConcurrentHashMap<>();

	private volatile boolean running;

	private volatile Map<String, QueuePoller> pollers = Map.of();

	private Completer completer;

	private ScheduledExecutorService maintenance;

	private ScheduledExecutorService heartbeats;

	private final List<Thread> maintenanceThreads = new CopyOnWriteArrayList<>();

	private AutoCloseable insertListener;

	/** Test hook: runs on the handler thread just before an attempt starts. */
	volatile Consumer<Execution> beforeStart;

	public Worker(WorkerStore store, List<HandlerRegistration> handlers, WorkerSettings settings,
			JobEventListener listener, RetryDelayOverride delayOverride) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.settings = Objects.requireNonNull(settings, "settings must not be null");
		this.registrations = new LinkedHashMap<>();
		for (HandlerRegistration registration : handlers) {
			if (this.registrations.put(registration.type(), registration) != null) {
				throw new IllegalArgumentException("Two handlers for job type " + registration.type());
			}
		}
		this.nodeId = (settings.nodeId() != null) ? settings.nodeId() : generateNodeId();
		this.listeners = new Listeners(listener);
		this.planner = new FailurePlanner((delayOverride != null) ? delayOverride : RetryDelayOverride.NONE,
				this.settings.errorHistoryLimit());
		Map<String, Integer> queues = new TreeMap<>(settings.queues());
		for (HandlerRegistration registration : handlers) {
			queues.putIfAbsent(registration.queue(), settings.defaultConcurrency());
		}
		this.queues = Map.copyOf(queues);
	}

	/** This node's reservation owner id. */
	public String nodeId() {
		return this.nodeId;
	}

	public boolean isRunning() {
		return this.running;
	}

	public WorkerStatus status() {
		Map<String, Integer> active = new TreeMap<>();
		for (String queue : this.queues.keySet()) {
			QueuePoller poller = this.pollers.get(queue);
			active.put(queue, (poller != null) ? poller.running() : 0);
		}
		return new WorkerStatus(this.nodeId, this.running, new TreeMap<>(this.queues), active,
				this.registrations.keySet().stream().sorted().toList());
	}

	/** Starts claiming. A stopped worker can be started again. */
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		this.completer = new Completer(this.store, this.settings.retention().completed().isZero(), this.listeners,
				this::outcomeWritten, this.nodeId);
		this.completer.start();
		// one poller per served queue, each claiming every type: the queue belongs to the job
		// (a handler's queue is only its default); a type's own limit is shared by all queues
		List<ClaimGroup> groups = ClaimGroup.of(this.registrations.values(), this.settings.visibilityTimeout());
		Map<String, QueuePoller> pollers = new HashMap<>();
		if (!groups.isEmpty()) {
			this.queues.forEach((queue, concurrency) -> pollers.put(queue, new QueuePoller(queue, concurrency, groups,
					this.store, this, this.settings.pollInterval())));
		}
		this.pollers = Map.copyOf(pollers);
		if (!pollers.isEmpty()) {
			this.insertListener = this.store.listenForInserts(this::inserted).orElse(null);
			this.store.workerStarting(this.queues.size() + 4 + ((this.insertListener != null) ? 1 : 0),
					this.queues.values().stream().mapToInt(Integer::intValue).sum());
		}
		this.pollers.values().forEach(QueuePoller::start);
		startMaintenance();
		logger.info("OJS worker " + this.nodeId + " started: queues " + this.queues + ", types "
				+ this.registrations.keySet());
	}

	private void startMaintenance() {
		this.heartbeats = scheduler("ojs-heartbeat-" + this.nodeId);
		this.maintenance = scheduler("ojs-maintenance-" + this.nodeId);
		Duration shortest = this.registrations.values()
			.stream()
			.map((registration) -> visibilityTimeout(registration, this.settings.visibilityTimeout()))
			.min(Duration::compareTo)
			.orElse(this.settings.visibilityTimeout());
		Duration heartbeat = max(MIN_MAINTENANCE_INTERVAL, shortest.dividedBy(3));
		Duration reap = max(MIN_MAINTENANCE_INTERVAL, min(MAX_REAP_INTERVAL, shortest.dividedBy(4)));
		// heartbeats on a thread of their own: a slow reap or prune never delays them
		schedule(this.heartbeats, "heartbeat", this::heartbeat, heartbeat);
		schedule(this.maintenance, "reaper", this::reap, reap);
		schedule(this.maintenance, "pruner", this::prune, this.settings.retention().pruneInterval());
	}

	/** One non-daemon thread running periodic tasks. */
	private ScheduledExecutorService scheduler(String threadName) {
		return new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, threadName);
			this.maintenanceThreads.add(thread);
			return thread;
		});
	}

	private static void schedule(ScheduledExecutorService scheduler, String name, Runnable task, Duration interval) {
		long millis = Math.max(1, interval.toMillis());
		// a periodic task that throws is never run again: catch everything
		scheduler.scheduleWithFixedDelay(() -> {
			try {
				task.run();
			}
			catch (Throwable ex) {
				Listeners.rethrowIfFatal(ex);
				logger.warn("OJS " + name + " failed, retrying in " + millis + " ms: " + ex);
			}
		}, ThreadLocalRandom.current().nextLong(millis), millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Stops gracefully: see the class description. Blocks up to the shutdown grace period
	 * (plus the time to write what is pending).
	 */
	public void stop() {
		synchronized (this) {
			if (!this.running) {
				return;
			}
			this.running = false;
		}
		long deadline = System.nanoTime() + this.settings.shutdownGracePeriod().toNanos();
		closeInsertListener();
		for (QueuePoller poller : this.pollers.values()) {
			poller.stopClaiming(max(Duration.ofSeconds(5), remaining(deadline)));
		}
		releaseUnstarted();
		awaitHandlers(deadline);
		failStillRunning();
		this.completer.stop(max(Duration.ofSeconds(5), remaining(deadline)));
		this.pollers.values().forEach(QueuePoller::shutdownExecutor);
		this.maintenance.shutdownNow();
		this.heartbeats.shutdownNow();
		joinMaintenanceThreads(System.nanoTime() + STOP_THREADS_TIMEOUT.toNanos());
		// outcomes the completer could not write are the reaper's now (§9.2): a later start
		// must not heartbeat them
		this.executions.clear();
		logger.info("OJS worker " + this.nodeId + " stopped");
	}

	private void joinMaintenanceThreads(long deadline) {
		for (Thread thread : this.maintenanceThreads) {
			try {
				thread.join(Math.max(1, remaining(deadline).toMillis()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			if (thread.isAlive()) {
				logger.warn("OJS " + thread.getName() + " still running after " + STOP_THREADS_TIMEOUT);
			}
			else {
				this.maintenanceThreads.remove(thread);
			}
		}
	}

	private void closeInsertListener() {
		if (this.insertListener != null) {
			try {
				this.insertListener.close();
			}
			catch (Exception ex) {
				logger.debug("Closing the insert listener failed", ex);
			}
			this.insertListener = null;
		}
	}

	private void releaseUnstarted() {
		List<Execution> unstarted = new ArrayList<>();
		for (Execution execution : this.executions.values()) {
			if (execution.transition(Execution.CLAIMED, Execution.RELEASED)) {
				unstarted.add(execution);
			}
		}
		if (unstarted.isEmpty()) {
			return;
		}
		try {
			this.store.release(unstarted.stream().map(Execution::job).toList());
		}
		catch (RuntimeException ex) {
			logger.warn("OJS could not release " + unstarted.size()
					+ " unstarted jobs; they come back after their visibility timeout: " + ex);
		}
		unstarted.forEach(this::untrack);
	}

	private void awaitHandlers(long deadline) {
		while (System.nanoTime() < deadline && this.pollers.values().stream().anyMatch((poller) -> poller.running() > 0)) {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * Records the attempts still running at the end of the grace period as failed with error
	 * type {@code shutdown} and interrupts them. Their outcomes go to the completer like any
	 * other, before it stops: written in a batch, a transient error retried until the
	 * completer's stop timeout, the listener told once written. Their handler threads leave
	 * the slots to the completer ({@link #execute}).
	 */
	private void failStillRunning() {
		JobError shutdown = JobError.of(FailurePlanner.SHUTDOWN,
				"Worker " + this.nodeId + " shut down while the job was running");
		for (Execution execution : this.executions.values()) {
			if (execution.transition(Execution.RUNNING, Execution.ABANDONED)) {
				if (!submit(execution, () -> shutdown, Duration.ZERO)) {
					// nothing to write: the slot is free now
					execution.poller().outcomeWritten(execution);
				}
				execution.interrupt();
			}
		}
	}

	/** The poller of a served queue once started, else {@code null}. */
	QueuePoller poller(String queue) {
		return this.pollers.get(queue);
	}

	// ---- called by pollers and handler threads

	Execution track(Job job, Duration visibilityTimeout, QueuePoller poller) {
		Execution execution = new Execution(job, this.registrations.get(job.type()), visibilityTimeout, poller,
				this.store);
		this.executions.put(execution.key(), execution);
		return execution;
	}

	private void untrack(Execution execution) {
		this.executions.remove(execution.key(), execution);
	}

	/** Runs one attempt on a handler thread and queues its outcome. */
	void execute(Execution execution) {
		QueuePoller poller = execution.poller();
		boolean queued = false;
		try {
			Consumer<Execution> hook = this.beforeStart;
			if (hook != null) {
				hook.accept(execution);
			}
			if (!execution.transition(Execution.CLAIMED, Execution.RUNNING)) {
				return;
			}
			Job job = execution.job();
			Throwable failure = null;
			long start = System.nanoTime();
			execution.runningOn(Thread.currentThread());
			try {
				execution.registration().handler().handle(execution);
			}
			catch (Throwable ex) {
				failure = ex;
			}
			finally {
				execution.runningOn(null);
				Thread.interrupted();
			}
			Duration duration = Duration.ofNanos(System.nanoTime() - start);
			if (!execution.transition(Execution.RUNNING, Execution.FINISHED)) {
				// abandoned by stop(), which queued its outcome (or freed its slot): not this thread's slot to free
				queued = true;
				return;
			}
			queued = submit(execution, failure, duration);
		}
		finally {
			// a queued outcome keeps its slot until the completer has written it
			poller.finished(execution, queued);
		}
	}

	/** Queues a handler's outcome: completed, or failed with the error {@code failure} is classified as. */
	private boolean submit(Execution execution, Throwable failure, Duration duration) {
		return submit(execution, () -> (failure != null) ? classify(execution, failure) : null, duration);
	}

	/**
	 * Queues the outcome: completed when {@code error} supplies {@code null}, else failed with
	 * that error. If that fails, stops tracking the attempt (no heartbeats) so the reaper
	 * records it.
	 * @return whether it was queued
	 */
	private boolean submit(Execution execution, Supplier<JobError> error, Duration duration) {
		boolean submitted = false;
		try {
			JobError failure = error.get();
			FailurePlanner.Plan plan = (failure != null) ? this.planner.plan(execution.job(), failure, this.store.now())
					: null;
			this.completer.submit(new Completer.Outcome(execution, duration, plan));
			submitted = true;
		}
		catch (Throwable ex) {
			Listeners.rethrowIfFatal(ex);
			logger.error("OJS could not record the outcome of job " + execution.id() + " attempt "
					+ execution.job().attempt() + "; its reservation expires and the reaper records the attempt as failed",
					ex);
		}
		finally {
			if (!submitted) {
				untrack(execution);
			}
		}
		return submitted;
	}

	private JobError classify(Execution execution, Throwable failure) {
		ErrorClassifier classifier = execution.registration().errorClassifier();
		if (classifier != null) {
			try {
				JobError error = classifier.classify(execution.job(), failure);
				if (error != null) {
					return error;
				}
			}
			catch (Throwable ex) {
				Listeners.rethrowIfFatal(ex);
				logger.warn("OJS error classifier failed for job " + execution.id(), ex);
			}
		}
		return JobError.of(failure);
	}

	private void outcomeWritten(Completer.Outcome outcome, boolean accepted) {
		Execution execution = outcome.execution();
		untrack(execution);
		execution.poller().outcomeWritten(execution);
		if (accepted && outcome.failure() != null) {
			execution.poller().offerDue(outcome.failure().failure().nextRetryAt());
		}
	}

	private void inserted(String queue) {
		if (queue == null) {
			this.pollers.values().forEach(QueuePoller::notifyInserted);
			return;
		}
		QueuePoller poller = this.pollers.get(queue);
		if (poller != null) {
			poller.notifyInserted();
		}
	}

	// ---- maintenance

	/**
	 * Spec §9.3: extend reservations that have used a third of their visibility timeout. When
	 * fewer were extended than asked for, finds the attempts whose reservation is gone.
	 */
	private void heartbeat() {
		Instant now = this.store.now();
		Map<Duration, List<Execution>> due = new HashMap<>();
		for (Execution execution : this.executions.values()) {
			if (execution.isReservationLost()) {
				continue;
			}
			Duration timeout = execution.visibilityTimeout();
			if (execution.lockedUntil() == null
					|| Duration.between(now, execution.lockedUntil()).compareTo(timeout.multipliedBy(2).dividedBy(3)) <= 0) {
				due.computeIfAbsent(timeout, (key) -> new ArrayList<>()).add(execution);
			}
		}
		due.forEach((timeout, executions) -> {
			Instant until = Timestamps.plus(now, timeout);
			int extended = this.store.heartbeat(this.nodeId, executions.stream().map(Execution::id).toList(), until);
			executions.forEach((execution) -> execution.extendedTo(until));
			if (extended < executions.size()) {
				Set<String> held = this.store.reservationsHeld(executions.stream().map(Execution::job).toList())
					.stream()
					.map(Job::id)
					.collect(Collectors.toSet());
				executions.stream()
					.filter((execution) -> !held.contains(execution.id()))
					.forEach(Execution::reservationLost);
			}
		});
	}

	/** Spec §9.2 / RET-12: expired reservations (any node's) become failed attempts; the next run continues. */
	private void reap() {
		List<AttemptFailure> reaped;
		int batches = 0;
		do {
			Map<String, FailurePlanner.Plan> plans = new HashMap<>();
			reaped = this.store.reapExpired(REAP_BATCH, (job) -> {
				FailurePlanner.Plan plan = this.planner.planTimeout(job, this.store.now());
				plans.put(job.id(), plan);
				return plan.failure();
			});
			for (AttemptFailure failure : reaped) {
				FailurePlanner.Plan plan = plans.get(failure.job().id());
				logger.info("OJS reaped job " + failure.job().id() + " attempt " + failure.job().attempt() + " of "
						+ failure.job().lockedBy() + ": reservation expired");
				this.listeners.failed(plan, Duration.ZERO);
				QueuePoller poller = this.pollers.get(failure.job().queue());
				if (poller != null) {
					poller.offerDue(failure.nextRetryAt());
				}
			}
		}
		while (reaped.size() == REAP_BATCH && this.running && ++batches < MAX_REAP_BATCHES);
	}

	private void prune() {
		RetentionSettings retention = this.settings.retention();
		long deleted = this.store.prune(retention, Duration.ofSeconds(1));
		if (deleted > 0 && logger.isDebugEnabled()) {
			logger.debug("OJS pruned " + deleted + " finished jobs");
		}
	}

	// ---- helpers

	static Duration visibilityTimeout(HandlerRegistration registration, Duration defaultTimeout) {
		return (registration.visibilityTimeout() != null) ? registration.visibilityTimeout() : defaultTimeout;
	}

	private static Duration remaining(long deadlineNanos) {
		return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static String generateNodeId() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			host = "localhost";
		}
		String random = Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36);
		return host + "-" + ProcessHandle.current().pid() + "-" + random.substring(0, Math.min(6, random.length()));
	}

}

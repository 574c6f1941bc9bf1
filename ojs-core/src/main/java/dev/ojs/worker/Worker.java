package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.AttemptFailure;

/**
 * The worker of one node: wires and runs its parts. A {@link QueuePoller} per served queue
 * claims jobs and runs them through the {@link AttemptRunner}; the {@link Completer} writes
 * their outcomes; the {@link Heartbeater} keeps their reservations; the {@link Rescuer}
 * fails expired reservations and the {@link Pruner} deletes finished jobs. The
 * {@link PauseWatcher} stops and restarts the pollers of paused queues, and the
 * {@link CancelWatcher} tells running attempts that their job was cancelled.
 * <p>
 * The served queues are the configured ones plus each handler's queue. {@link #stop()} is
 * graceful (ojs-graceful-shutdown.md): it stops claiming, releases claimed attempts that
 * have not started, lets running handlers finish within the grace period, records those
 * still running as failed with error type {@value FailurePlanner#SHUTDOWN}, and writes every
 * pending outcome. The engine's threads are not daemons, so a worker-only application keeps
 * running until the worker stops.
 */
public class Worker {

	private static final Log logger = LogFactory.getLog(Worker.class);

	/** The least time shutdown gives the completer and pollers to finish, whatever the grace period. */
	private static final Duration MIN_STOP_TIMEOUT = Duration.ofSeconds(5);

	/** How often a running node tells the store it is alive (ojs-admin-api.md §9); stale after three. */
	public static final Duration NODE_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);

	private final WorkerStore store;

	private final Map<String, HandlerRegistration> registrations = new LinkedHashMap<>();

	private final WorkerSettings settings;

	private final String nodeId;

	private final OutcomeEvents events;

	private final FailurePlanner planner;

	/** Served queue to its concurrency. */
	private final Map<String, Integer> queues;

	private final LocalAttempts attempts = new LocalAttempts();

	private volatile boolean running;

	private volatile Map<String, QueuePoller> pollers = Map.of();

	private volatile @Nullable Slots slots;

	private @Nullable Completer completer;

	private @Nullable AttemptRunner executor;

	private @Nullable Heartbeater heartbeater;

	private @Nullable NodeBeat nodeBeat;

	private @Nullable Rescuer rescuer;

	private @Nullable Pruner pruner;

	private @Nullable Expirer expirer;

	private volatile @Nullable PauseWatcher pauseWatcher;

	private @Nullable CancelWatcher cancelWatcher;

	private @Nullable AutoCloseable insertCallback;

	public Worker(WorkerStore store, List<HandlerRegistration> handlers, WorkerSettings settings,
			@Nullable JobListener listener, @Nullable RetryDelayOverride delayOverride) {
		this.store = Objects.requireNonNull(store, "store must not be null");
		this.settings = Objects.requireNonNull(settings, "settings must not be null");
		for (HandlerRegistration registration : handlers) {
			if (this.registrations.put(registration.type(), registration) != null) {
				throw new IllegalArgumentException("Two handlers for job type " + registration.type());
			}
		}
		this.nodeId = settings.nodeIdOrGenerated();
		this.events = new OutcomeEvents(listener);
		this.planner = new FailurePlanner((delayOverride != null) ? delayOverride : RetryDelayOverride.NONE,
				settings.errorHistoryLimit(),
				new RetryPolicies(this.registrations, settings.retryPolicy(), store::findPublishedHandler));
		Map<String, Integer> queues = new TreeMap<>(settings.queues());
		for (HandlerRegistration registration : handlers) {
			queues.putIfAbsent(registration.queue(), settings.defaultConcurrency());
		}
		this.queues = Map.copyOf(queues);
	}

	/**
	 * Attempts of external workers (the OJS HTTP binding) on this node's engine: the same
	 * claim, retry policies, error history and events as this node's handlers.
	 */
	public RemoteAttempts remoteAttempts() {
		return new RemoteAttempts(this.store, this.planner, this.events, this.settings.retention().completed().isZero(),
				this::retryDue);
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
		Slots slots = this.slots;
		this.queues.keySet().forEach((queue) -> active.put(queue, (slots != null) ? slots.running(queue) : 0));
		return new WorkerStatus(this.nodeId, this.running, new TreeMap<>(this.queues), active,
				this.registrations.keySet().stream().sorted().toList());
	}

	/** Starts claiming. A stopped worker can be started again. */
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		List<ClaimGroup> groups = ClaimGroup.of(this.registrations.values(), this.settings.visibilityTimeout());
		this.slots = new Slots(this.queues, groups);
		this.completer = new Completer(this.store, this.settings.retention().completed().isZero(), this.events,
				this::outcomeWritten, this.nodeId, new Refills(this.store, () -> this.pollers));
		this.executor = new AttemptRunner(this.store, this.planner, this.completer, this.attempts, this.slots);
		Map<String, QueuePoller> pollers = new HashMap<>();
		if (!groups.isEmpty()) {
			this.queues.forEach((queue, concurrency) -> pollers.put(queue,
					new QueuePoller(queue, concurrency, this.nodeId, groups, this.registrations, this.store, this.slots,
							this.attempts, this.executor, this.settings.pollInterval())));
		}
		this.pollers = Map.copyOf(pollers);
		Duration shortestVisibility = groups.stream()
			.flatMap((group) -> group.visibilityByType.values().stream())
			.min(Duration::compareTo)
			.orElse(this.settings.visibilityTimeout());
		this.heartbeater = new Heartbeater(this.store, this.nodeId, this.attempts, shortestVisibility,
				this.events);
		this.rescuer = new Rescuer(this.store, this.nodeId, this.planner, this.events, this::retryDue, this::isRunning,
				shortestVisibility);
		this.pruner = new Pruner(this.store, this.nodeId, this.settings.retention());
		this.expirer = new Expirer(this.store, this.nodeId, this.events, this::isRunning);
		Slots slots = this.slots;
		this.nodeBeat = new NodeBeat(this.store, this.nodeId, List.copyOf(this.queues.keySet()),
				this.queues.values().stream().mapToInt(Integer::intValue).sum(), slots::running, NODE_HEARTBEAT_INTERVAL);
		this.pauseWatcher = new PauseWatcher(this.store, this.nodeId, this.pollers, this.settings.pollInterval());
		this.cancelWatcher = new CancelWatcher(this.store, this.nodeId, this.attempts, this.settings.pollInterval());
		if (!pollers.isEmpty()) {
			this.insertCallback = this.store.listenForInserts(this::inserted).orElse(null);
			// a thread per poller, completer, heartbeater, node beat, rescuer, pruner, expirer and watcher (the store
			// adds what its insert callback holds)
			int engineConnections = pollers.size() + 8;
			this.store.workerStarting(engineConnections, this.queues.values().stream().mapToInt(Integer::intValue).sum());
		}
		this.pauseWatcher.refreshNow();
		this.completer.start();
		this.pollers.values().forEach(QueuePoller::start);
		this.heartbeater.start();
		this.nodeBeat.start();
		this.rescuer.start();
		this.pruner.start();
		this.expirer.start();
		this.pauseWatcher.start();
		this.cancelWatcher.start();
		logger.info("OJS worker " + this.nodeId + " started: queues " + this.queues + ", types "
				+ this.registrations.keySet());
	}

	/**
	 * Reads the paused queues now rather than at the next poll interval: call it after
	 * pausing or resuming a queue on this node, so that this node follows at once.
	 */
	public void refreshPausedQueues() {
		PauseWatcher watcher = this.pauseWatcher;
		if (this.running && watcher != null) {
			watcher.refreshNow();
		}
	}

	/**
	 * Stops gracefully (see the class description). Blocks up to the shutdown grace period,
	 * plus the time to write what is pending; a {@link #start()} meanwhile waits for it.
	 */
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		long deadline = System.nanoTime() + this.settings.shutdownGracePeriod().toNanos();
		closeInsertListener();
		for (QueuePoller poller : this.pollers.values()) {
			poller.stopClaiming(Durations.atLeast(MIN_STOP_TIMEOUT, Durations.until(deadline)));
		}
		this.attempts.releaseUnstarted(this.store);
		awaitHandlers(deadline);
		for (LocalAttempt attempt : this.attempts.transition(LocalAttempt.RUNNING, LocalAttempt.ABANDONED)) {
			this.executor.abandon(attempt, this.nodeId);
		}
		this.completer.stop(Durations.atLeast(MIN_STOP_TIMEOUT, Durations.until(deadline)));
		this.pollers.values().forEach(QueuePoller::stopHandlers);
		this.executor.stop();
		this.heartbeater.stop(MIN_STOP_TIMEOUT);
		this.nodeBeat.stop(MIN_STOP_TIMEOUT);
		this.rescuer.stop(MIN_STOP_TIMEOUT);
		this.pruner.stop(MIN_STOP_TIMEOUT);
		this.expirer.stop(MIN_STOP_TIMEOUT);
		this.pauseWatcher.stop(MIN_STOP_TIMEOUT);
		this.cancelWatcher.stop(MIN_STOP_TIMEOUT);
		// outcomes the completer could not write are the rescuer's now (§9.2): a later start
		// must not heartbeat them
		this.attempts.clear();
		logger.info("OJS worker " + this.nodeId + " stopped");
	}

	private void closeInsertListener() {
		if (this.insertCallback != null) {
			try {
				this.insertCallback.close();
			}
			catch (Exception ex) {
				logger.debug("Closing the insert listener failed", ex);
			}
			this.insertCallback = null;
		}
	}

	private void awaitHandlers(long deadline) {
		while (System.nanoTime() < deadline && this.slots.running() > 0) {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/** The completer wrote, rejected or gave up an outcome: the attempt's slot is free. */
	private void outcomeWritten(Completer.Outcome outcome, boolean accepted) {
		LocalAttempt attempt = outcome.attempt();
		this.attempts.untrack(attempt);
		this.slots.free(attempt);
		AttemptFailure failure = (outcome.plan() != null) ? outcome.plan().attemptFailure() : null;
		if (accepted && failure != null && failure.nextRetryAt() != null) {
			retryDue(attempt.claimedFrom(), failure.nextRetryAt());
		}
	}

	private void retryDue(String queue, Instant due) {
		QueuePoller poller = this.pollers.get(queue);
		if (poller != null) {
			poller.offerDue(due);
		}
	}

	private void inserted(@Nullable String queue) {
		if (queue == null) {
			this.pollers.values().forEach(QueuePoller::inserted);
			return;
		}
		QueuePoller poller = this.pollers.get(queue);
		if (poller != null) {
			poller.inserted();
		}
	}

}

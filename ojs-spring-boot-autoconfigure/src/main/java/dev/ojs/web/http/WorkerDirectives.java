package dev.ojs.web.http;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import dev.ojs.spring.OjsWorkerNodes;

/**
 * The lifecycle directives this node gives external workers in heartbeat responses
 * (ojs-http-binding.md §10.4, L1-HB-002): {@code running}, {@code quiet} (stop fetching,
 * finish active jobs) or {@code terminate}. An application or operator sets one per worker
 * id, through {@link OjsWorkerNodes} (also the Admin API's {@code POST
 * /ojs/v1/admin/workers/{id}/quiet} and {@code .../terminate}), which keeps it; while this
 * node shuts down, every worker is told {@code quiet}. Without worker nodes (a job store
 * with no admin queries) it keeps the signals itself. Signals live in this node's memory: a
 * worker that heartbeats another node of the application is told that node's.
 */
public class WorkerDirectives implements SmartLifecycle {

	/** A worker's lifecycle state as a heartbeat tells it. */
	public enum Directive {

		RUNNING, QUIET, TERMINATE;

		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private final @Nullable OjsWorkerNodes nodes;

	/** The signals, without worker nodes. */
	private final Map<String, Directive> own = new ConcurrentHashMap<>();

	private volatile boolean running;

	/** Directives kept by this object. */
	public WorkerDirectives() {
		this(null);
	}

	/** @param nodes keeps the signal set for each worker, or {@code null} to keep them here */
	public WorkerDirectives(@Nullable OjsWorkerNodes nodes) {
		this.nodes = nodes;
	}

	/** Tells a worker to stop fetching and finish its active jobs. */
	public void quiet(String workerId) {
		set(workerId, Directive.QUIET);
	}

	/** Tells a worker to shut down. */
	public void terminate(String workerId) {
		set(workerId, Directive.TERMINATE);
	}

	/** Lets a worker run normally again. */
	public void resume(String workerId) {
		set(workerId, Directive.RUNNING);
	}

	private void set(String workerId, Directive directive) {
		if (this.nodes == null) {
			if (directive == Directive.RUNNING) {
				this.own.remove(workerId);
			}
			else {
				this.own.put(workerId, directive);
			}
		}
		else if (directive == Directive.QUIET) {
			this.nodes.quiet(workerId);
		}
		else if (directive == Directive.TERMINATE) {
			this.nodes.terminate(workerId);
		}
		else {
			this.nodes.resume(workerId);
		}
	}

	/** The directive for this worker now. */
	public Directive directive(String workerId) {
		Directive directive = (this.nodes != null) ? Directive.valueOf(this.nodes.signal(workerId).name())
				: this.own.getOrDefault(workerId, Directive.RUNNING);
		return (directive == Directive.RUNNING && !this.running) ? Directive.QUIET : directive;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops before the worker and the web server, so heartbeats during shutdown say {@code quiet}. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE;
	}

}

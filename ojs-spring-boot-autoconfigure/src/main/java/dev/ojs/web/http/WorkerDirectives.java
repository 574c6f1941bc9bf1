package dev.ojs.web.http;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.context.SmartLifecycle;

/**
 * The lifecycle directives this node gives external workers in heartbeat responses
 * (ojs-http-binding.md §10.4, L1-HB-002): {@code running}, {@code quiet} (stop fetching,
 * finish active jobs) or {@code terminate}. An application or operator sets one per worker
 * id; while this node shuts down, every worker is told {@code quiet}. Directives live in
 * this node's memory: a worker that heartbeats another node of the application is told
 * that node's.
 */
public class WorkerDirectives implements SmartLifecycle {

	/** A worker's lifecycle state as a heartbeat tells it. */
	public enum Directive {

		RUNNING, QUIET, TERMINATE;

		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private final Map<String, Directive> directives = new ConcurrentHashMap<>();

	private volatile boolean running;

	/** Tells a worker to stop fetching and finish its active jobs. */
	public void quiet(String workerId) {
		this.directives.put(workerId, Directive.QUIET);
	}

	/** Tells a worker to shut down. */
	public void terminate(String workerId) {
		this.directives.put(workerId, Directive.TERMINATE);
	}

	/** Lets a worker run normally again. */
	public void resume(String workerId) {
		this.directives.remove(workerId);
	}

	/** The directive for this worker now. */
	public Directive directive(String workerId) {
		Directive directive = this.directives.getOrDefault(workerId, Directive.RUNNING);
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

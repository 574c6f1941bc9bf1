package dev.ojs.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The settings of one queue, {@code ojs.queues.<name>.*} (ojs-queue-config.md §6.2): set in the
 * database at start-up, so they hold on every node.
 */
public class OjsQueueProperties {

	/**
	 * Most jobs of the queue active at once on all nodes and workers (in process and over HTTP)
	 * together, at least 1; unset for no such limit. Set in the database at start-up; a limit
	 * changed at run time (Admin API, 'OjsQueues') holds until a node configured here starts again.
	 */
	private @Nullable Integer concurrency;

	public @Nullable Integer getConcurrency() {
		return this.concurrency;
	}

	public void setConcurrency(@Nullable Integer concurrency) {
		this.concurrency = concurrency;
	}

}

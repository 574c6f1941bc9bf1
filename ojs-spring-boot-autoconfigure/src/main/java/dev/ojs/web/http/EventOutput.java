package dev.ojs.web.http;

import java.io.IOException;

/**
 * Where the events of one subscriber of {@link OjsEventStream} are written: a non-blocking
 * output in the manner of Servlet non-blocking I/O. A write or flush is made only after
 * {@link #isReady()} answered {@code true}; once it answers {@code false}, the output calls
 * its {@code writable} callback when it may be written to again.
 */
interface EventOutput {

	/**
	 * Starts delivery.
	 * @param writable run when the output may be written to (again)
	 * @param closed run once the client went away or the output failed
	 */
	void start(Runnable writable, Runnable closed);

	/** Whether a write or a flush can be made now without blocking. */
	boolean isReady();

	void write(byte[] bytes) throws IOException;

	void flush() throws IOException;

	/** Ends the response; without effect when it has ended. */
	void close();

	/** Opens a subscriber's output. */
	@FunctionalInterface
	interface Opener {

		EventOutput open() throws IOException;

	}

}

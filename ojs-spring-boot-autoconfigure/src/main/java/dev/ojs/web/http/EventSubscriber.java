package dev.ojs.web.http;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One subscriber of {@link OjsEventStream}: its filters, its bounded buffer of encoded
 * events, and the delivery of that buffer to its {@link EventOutput}. {@link #offer} never
 * blocks; writes are made only while the output is ready, by one thread at a time (whichever
 * asked for delivery: the stream's writer or the container calling back), so a subscriber
 * that does not read holds up no thread, only fills its own buffer.
 */
final class EventSubscriber {

	private static final Log logger = LogFactory.getLog(EventSubscriber.class);

	private final Set<String> types;

	private final Set<String> queues;

	private final Set<String> jobTypes;

	private final EventOutput output;

	private final ArrayBlockingQueue<byte[]> buffer;

	private final Executor writer;

	private final Consumer<EventSubscriber> onClose;

	/** Requests for delivery; the thread that takes it from 0 delivers until it is 0 again. */
	private final AtomicInteger work = new AtomicInteger();

	/** Whether a delivery waits on the writer. */
	private final AtomicBoolean scheduled = new AtomicBoolean();

	private final AtomicBoolean closed = new AtomicBoolean();

	/**
	 * Whether the container has called the output's write listener once: until then the
	 * request's own thread may still be in the servlet, and the output is not written from
	 * any other thread (events wait in the buffer).
	 */
	private volatile boolean writable;

	// written and read only by the delivering thread
	private boolean unflushed = true;

	private boolean outputClosed;

	/**
	 * @param bufferSize how many events may wait for the client
	 * @param writer runs deliveries that events ask for
	 * @param onClose told once, when the subscriber ends
	 */
	EventSubscriber(Set<String> types, Set<String> queues, Set<String> jobTypes, EventOutput output, int bufferSize,
			Executor writer, Consumer<EventSubscriber> onClose) {
		this.types = types;
		this.queues = queues;
		this.jobTypes = jobTypes;
		this.output = output;
		this.buffer = new ArrayBlockingQueue<>(bufferSize);
		this.writer = writer;
		this.onClose = onClose;
	}

	/** Starts delivery: the status and headers go out first, ahead of any event. */
	void start() {
		this.output.start(() -> {
			this.writable = true;
			deliver();
		}, this::close);
	}

	boolean wants(String type, String queue, String jobType) {
		return (this.types.isEmpty() || this.types.contains(type))
				&& (this.queues.isEmpty() || this.queues.contains(queue))
				&& (this.jobTypes.isEmpty() || this.jobTypes.contains(jobType));
	}

	/**
	 * Adds an encoded event to the buffer and asks the writer to deliver it, without waiting.
	 * @return {@code false} when the buffer is full
	 */
	boolean offer(byte[] event) {
		if (this.closed.get()) {
			return true;
		}
		if (!this.buffer.offer(event)) {
			return false;
		}
		if (this.scheduled.compareAndSet(false, true)) {
			try {
				this.writer.execute(() -> {
					this.scheduled.set(false);
					deliver();
				});
			}
			catch (RejectedExecutionException ex) {
				// the stream is being destroyed
				this.scheduled.set(false);
			}
		}
		return true;
	}

	int buffered() {
		return this.buffer.size();
	}

	boolean isClosed() {
		return this.closed.get();
	}

	/**
	 * Ends the subscription and its response (at once if no other thread is delivering,
	 * else by that thread).
	 * @return whether this call ended it
	 */
	boolean close() {
		if (!this.closed.compareAndSet(false, true)) {
			return false;
		}
		this.buffer.clear();
		this.onClose.accept(this);
		deliver();
		return true;
	}

	/** Writes what is buffered while the output is ready; never waits. */
	void deliver() {
		if (this.work.getAndIncrement() != 0) {
			return;
		}
		int missed = 1;
		do {
			if (this.closed.get()) {
				closeOutput();
			}
			else {
				try {
					write();
				}
				catch (IOException | RuntimeException ex) {
					logger.debug("OJS event stream: a subscriber's output failed: " + ex);
					close();
				}
			}
			missed = this.work.addAndGet(-missed);
		}
		while (missed != 0);
	}

	private void write() throws IOException {
		while (this.writable && !this.closed.get() && this.output.isReady()) {
			byte[] event = this.buffer.poll();
			if (event != null) {
				this.output.write(event);
				this.unflushed = true;
			}
			else if (this.unflushed) {
				this.unflushed = false;
				this.output.flush();
			}
			else {
				return;
			}
		}
	}

	private void closeOutput() {
		if (!this.outputClosed) {
			this.outputClosed = true;
			this.buffer.clear();
			this.output.close();
		}
	}

}

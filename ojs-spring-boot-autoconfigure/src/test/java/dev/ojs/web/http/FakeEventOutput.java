package dev.ojs.web.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link EventOutput} that records what is written, ready or not as the test says; like a
 * servlet container it calls {@code writable} once delivery starts and again when it turns
 * ready.
 */
final class FakeEventOutput implements EventOutput {

	final List<String> written = new CopyOnWriteArrayList<>();

	final AtomicInteger flushes = new AtomicInteger();

	final AtomicInteger closes = new AtomicInteger();

	/** What happened, in order: {@code flush}, {@code close} and each write's text. */
	final List<String> operations = new CopyOnWriteArrayList<>();

	private volatile boolean ready;

	private volatile Runnable writable = () -> {
	};

	private volatile Runnable closed = () -> {
	};

	volatile boolean failWrites;

	FakeEventOutput() {
		this(true);
	}

	FakeEventOutput(boolean ready) {
		this.ready = ready;
	}

	@Override
	public void start(Runnable writable, Runnable closed) {
		this.writable = writable;
		this.closed = closed;
		if (this.ready) {
			writable.run();
		}
	}

	@Override
	public boolean isReady() {
		return this.ready;
	}

	@Override
	public void write(byte[] bytes) throws IOException {
		if (!this.ready) {
			throw new IllegalStateException("Written while not ready");
		}
		if (this.failWrites) {
			throw new IOException("Broken pipe");
		}
		String text = new String(bytes, StandardCharsets.UTF_8);
		this.written.add(text);
		this.operations.add(text);
	}

	@Override
	public void flush() {
		if (!this.ready) {
			throw new IllegalStateException("Flushed while not ready");
		}
		this.flushes.incrementAndGet();
		this.operations.add("flush");
	}

	@Override
	public void close() {
		this.closes.incrementAndGet();
		this.operations.add("close");
	}

	void setReady(boolean ready) {
		this.ready = ready;
		if (ready) {
			this.writable.run();
		}
	}

	/** As when the client goes away. */
	void clientGone() {
		this.closed.run();
	}

	/** The events written (not keep-alive lines). */
	List<String> events() {
		return this.written.stream().filter((text) -> text.startsWith("id:")).toList();
	}

}

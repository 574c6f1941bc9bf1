package dev.ojs.web.http;

import java.io.IOException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;

/**
 * An {@link EventOutput} on Servlet non-blocking output: the request is put in asynchronous
 * mode without a timeout and its output stream gets a {@link WriteListener}, so no write
 * ever blocks a thread.
 */
final class ServletEventOutput implements EventOutput {

	private final AsyncContext async;

	private final ServletOutputStream out;

	private ServletEventOutput(AsyncContext async, ServletOutputStream out) {
		this.async = async;
		this.out = out;
	}

	/**
	 * Answers the request as a stream of server-sent events: status 200 and
	 * {@code text/event-stream}, which go out with the first flush.
	 */
	static ServletEventOutput open(HttpServletRequest request, HttpServletResponse response) throws IOException {
		response.setStatus(HttpServletResponse.SC_OK);
		// the protocol filter set the binding's media type for JSON answers
		response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
		response.setHeader("Cache-Control", "no-cache");
		AsyncContext async = request.startAsync();
		async.setTimeout(0);
		return new ServletEventOutput(async, response.getOutputStream());
	}

	@Override
	public void start(Runnable writable, Runnable closed) {
		this.async.addListener(new AsyncListener() {

			@Override
			public void onComplete(AsyncEvent event) {
				closed.run();
			}

			@Override
			public void onTimeout(AsyncEvent event) {
				failed(closed);
			}

			@Override
			public void onError(AsyncEvent event) {
				failed(closed);
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}

		});
		// the container calls onWritePossible at once, which sends the status and headers
		this.out.setWriteListener(new WriteListener() {

			@Override
			public void onWritePossible() {
				writable.run();
			}

			@Override
			public void onError(Throwable ex) {
				failed(closed);
			}

		});
	}

	/** Completes at once: else the container dispatches the failure to the error page. */
	private void failed(Runnable closed) {
		closed.run();
		close();
	}

	@Override
	public boolean isReady() {
		return this.out.isReady();
	}

	@Override
	public void write(byte[] bytes) throws IOException {
		this.out.write(bytes);
	}

	@Override
	public void flush() throws IOException {
		this.out.flush();
	}

	@Override
	public void close() {
		try {
			this.async.complete();
		}
		catch (IllegalStateException ex) {
			// completed already
		}
	}

}

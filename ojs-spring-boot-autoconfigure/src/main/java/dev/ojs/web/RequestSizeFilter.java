package dev.ojs.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bounds the request bodies of an OJS surface while they are read, before any is held whole:
 * a request whose {@code Content-Length} passes the limit is answered {@code 413} at once,
 * without reading it; any other body (chunked ones too) is read through a stream that throws
 * {@link RequestTooLargeException} at the first byte past the limit, which
 * {@link ApiExceptionHandler} answers with {@code 413}. Requests for other paths pass
 * untouched.
 */
public class RequestSizeFilter extends OncePerRequestFilter {

	private final long maxBytes;

	private final Predicate<String> paths;

	private final JsonMapper jsonMapper;

	/**
	 * @param maxBytes the most bytes a body may have
	 * @param paths which routed paths ({@link OjsPaths#routedPath}) the limit applies to
	 * @param jsonMapper writes the refusal
	 */
	public RequestSizeFilter(long maxBytes, Predicate<String> paths, JsonMapper jsonMapper) {
		if (maxBytes < 1) {
			throw new IllegalArgumentException("The request size limit must be at least 1 byte");
		}
		this.maxBytes = maxBytes;
		this.paths = paths;
		this.jsonMapper = jsonMapper;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !this.paths.test(OjsPaths.routedPath(request));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.maxBytes) {
			// the client is told to stop rather than have the rest of the body read
			response.setHeader("Connection", "close");
			ErrorBodies.write(this.jsonMapper, request, response, RequestTooLargeException.refusal(this.maxBytes));
			return;
		}
		chain.doFilter(new LimitedRequest(request, this.maxBytes), response);
	}

	/** The request with its body read through a {@link LimitedInputStream}. */
	private static final class LimitedRequest extends HttpServletRequestWrapper {

		private final long maxBytes;

		private @Nullable ServletInputStream stream;

		private @Nullable BufferedReader reader;

		LimitedRequest(HttpServletRequest request, long maxBytes) {
			super(request);
			this.maxBytes = maxBytes;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.stream == null) {
				this.stream = new LimitedInputStream(super.getInputStream(), this.maxBytes);
			}
			return this.stream;
		}

		@Override
		public BufferedReader getReader() throws IOException {
			if (this.reader == null) {
				String encoding = getCharacterEncoding();
				Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
				this.reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
			}
			return this.reader;
		}

	}

	/** Counts the bytes read and refuses those past the limit. */
	private static final class LimitedInputStream extends ServletInputStream {

		private final ServletInputStream delegate;

		private final long maxBytes;

		private long read;

		LimitedInputStream(ServletInputStream delegate, long maxBytes) {
			this.delegate = delegate;
			this.maxBytes = maxBytes;
		}

		@Override
		public int read() throws IOException {
			int b = this.delegate.read();
			if (b >= 0) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = this.delegate.read(buffer, offset, length);
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void count(int n) throws RequestTooLargeException {
			this.read += n;
			if (this.read > this.maxBytes) {
				throw new RequestTooLargeException(this.maxBytes);
			}
		}

		@Override
		public boolean isFinished() {
			return this.delegate.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.delegate.setReadListener(listener);
		}

		@Override
		public int available() throws IOException {
			return this.delegate.available();
		}

		@Override
		public void close() throws IOException {
			this.delegate.close();
		}

	}

}

package dev.ojs.web.security;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * An HTTP/1.1 client that writes the request line exactly as given: no client library
 * normalises {@code ..}, {@code //}, {@code %6F} or {@code ;x=1} away, so the server sees the
 * very bytes of each spelling. One connection per request ({@code Connection: close}); an
 * event stream's body is not read (its headers tell enough).
 */
final class RawHttp {

	private static final JsonMapper JSON = new JsonMapper();

	private final int port;

	RawHttp(int port) {
		this.port = port;
	}

	/** A response: status, headers (names lower case, in order) and the body. */
	record Response(int status, List<Map.Entry<String, String>> headers, String body) {

		@Nullable String header(String name) {
			return this.headers.stream()
				.filter((header) -> header.getKey().equals(name.toLowerCase(Locale.ROOT)))
				.map(Map.Entry::getValue)
				.findFirst()
				.orElse(null);
		}

		List<String> headers(String name) {
			return this.headers.stream()
				.filter((header) -> header.getKey().equals(name.toLowerCase(Locale.ROOT)))
				.map(Map.Entry::getValue)
				.toList();
		}

		JsonNode json() {
			try {
				return this.body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(this.body);
			}
			catch (RuntimeException ex) {
				return MissingNode.getInstance();
			}
		}

		/** The binding's {@code error.code}, or {@code null} when the body is not the binding's error body. */
		@Nullable String errorCode() {
			JsonNode code = json().path("error").path("code");
			return code.isString() ? code.stringValue() : null;
		}

	}

	/**
	 * Sends {@code method target HTTP/1.1} with the given headers ({@code Host} among them, or
	 * {@code 127.0.0.1:<port>}) and body ({@code application/json} unless a content type is given).
	 */
	Response send(String method, String target, Map<String, String> headers, @Nullable String body) {
		return send(method, target, headers, body, () -> {
		});
	}

	/**
	 * As {@link #send(String, String, Map, String)}; {@code nudge} runs when no answer has come
	 * within a second (an event stream sends its headers with its first event).
	 */
	Response send(String method, String target, Map<String, String> headers, @Nullable String body, Runnable nudge) {
		StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
		if (headers.keySet().stream().noneMatch("Host"::equalsIgnoreCase)) {
			request.append("Host: 127.0.0.1:").append(this.port).append("\r\n");
		}
		headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
		byte[] content = (body != null) ? body.getBytes(StandardCharsets.UTF_8) : new byte[0];
		if (body != null && headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
			request.append("Content-Type: application/json\r\n");
		}
		if (body != null || !(method.equals("GET") || method.equals("HEAD") || method.equals("DELETE"))) {
			request.append("Content-Length: ").append(content.length).append("\r\n");
		}
		request.append("Connection: close\r\n\r\n");
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.write(content);
			out.flush();
			BufferedInputStream in = new BufferedInputStream(socket.getInputStream());
			socket.setSoTimeout(1_000);
			in.mark(1);
			try {
				in.read();
			}
			catch (SocketTimeoutException ex) {
				nudge.run();
				socket.setSoTimeout(15_000);
				in.read();
			}
			in.reset();
			socket.setSoTimeout(15_000);
			return read(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(method + " " + target, ex);
		}
	}

	private static Response read(InputStream in) throws IOException {
		String statusLine = line(in);
		if (statusLine == null) {
			throw new IOException("No response");
		}
		int status = Integer.parseInt(statusLine.split(" ")[1]);
		List<Map.Entry<String, String>> headers = new ArrayList<>();
		for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
			int colon = line.indexOf(':');
			headers.add(Map.entry(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim()));
		}
		Response head = new Response(status, headers, "");
		String contentType = head.header("Content-Type");
		if (contentType != null && contentType.startsWith("text/event-stream")) {
			return head;
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		String length = head.header("Content-Length");
		if ("chunked".equalsIgnoreCase(head.header("Transfer-Encoding"))) {
			for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0; size = Integer
				.parseInt(line(in).split(";")[0].trim(), 16)) {
				body.write(in.readNBytes(size));
				line(in);
			}
		}
		else if (length != null) {
			body.write(in.readNBytes(Integer.parseInt(length)));
		}
		else {
			in.transferTo(body);
		}
		return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
	}

	private static @Nullable String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int c = in.read(); c != '\n'; c = in.read()) {
			if (c < 0) {
				return (line.size() == 0) ? null : line.toString(StandardCharsets.ISO_8859_1);
			}
			if (c != '\r') {
				line.write(c);
			}
		}
		return line.toString(StandardCharsets.ISO_8859_1);
	}

}

package dev.ojs.web.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/** A client of the binding that uses nothing but {@code java.net.http}, as a worker in another language would. */
final class OjsClient {

	static final JsonMapper JSON = new JsonMapper();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	private final @Nullable String token;

	OjsClient(int port, @Nullable String token) {
		this.base = "http://127.0.0.1:" + port;
		this.token = token;
	}

	/** A response: status, headers and the body as JSON (missing when it is not JSON). */
	record Response(int status, HttpHeaders headers, JsonNode body, String text) {

		String header(String name) {
			return this.headers.firstValue(name).orElse(null);
		}

		/** The binding's error code, or {@code null}. */
		@Nullable String errorCode() {
			JsonNode code = this.body.path("error").path("code");
			return code.isString() ? code.stringValue() : null;
		}

	}

	Response post(String path, String body) {
		return send("POST", path, body, Map.of("Content-Type", OjsHttp.MEDIA_TYPE_VALUE));
	}

	Response post(String path, Object body) {
		return post(path, JSON.writeValueAsString(body));
	}

	Response get(String path) {
		return send("GET", path, null, Map.of());
	}

	Response delete(String path) {
		return send("DELETE", path, null, Map.of());
	}

	Response send(String method, String path, @Nullable String body, Map<String, String> headers) {
		return send(method, path, body, headers, true);
	}

	Response send(String method, String path, @Nullable String body, Map<String, String> headers,
			boolean authenticate) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body)
					: HttpRequest.BodyPublishers.noBody());
		headers.forEach(request::header);
		if (authenticate && this.token != null && !headers.containsKey("Authorization")) {
			request.header("Authorization", "Bearer " + this.token);
		}
		try {
			HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			JsonNode json;
			try {
				json = response.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(response.body());
			}
			catch (RuntimeException ex) {
				json = MissingNode.getInstance();
			}
			return new Response(response.statusCode(), response.headers(), json, response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}


	/**
	 * Subscribes to {@code GET /ojs/v1/events}: each server-sent event's {@code data} line,
	 * parsed, is added to the returned list as it arrives; the content type of the answer
	 * goes into {@code contentType}.
	 */
	List<JsonNode> events(String query, List<String> contentType) {
		List<JsonNode> events = new java.util.concurrent.CopyOnWriteArrayList<>();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + "/ojs/v1/events" + query))
			.header("Accept", "text/event-stream");
		if (this.token != null) {
			request.header("Authorization", "Bearer " + this.token);
		}
		this.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines()).thenAccept((response) -> {
			contentType.add(response.headers().firstValue("Content-Type").orElse(""));
			response.body().forEach((line) -> {
				if (line.startsWith("data:")) {
					events.add(JSON.readTree(line.substring(5).trim()));
				}
			});
		});
		return events;
	}

}

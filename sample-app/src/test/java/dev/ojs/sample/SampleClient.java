package dev.ojs.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP calls to the sample running on a local port, as the README's {@code curl} examples
 * make them, with their JSON bodies read.
 */
final class SampleClient {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = new JsonMapper();

	private final int port;

	private final @Nullable String authorization;

	SampleClient(int port) {
		this(port, null);
	}

	private SampleClient(int port, @Nullable String authorization) {
		this.port = port;
		this.authorization = authorization;
	}

	/** The same client, sending HTTP Basic credentials with every request. */
	SampleClient as(String user, String password) {
		return new SampleClient(this.port, "Basic "
				+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
	}

	HttpResponse<String> get(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).GET());
	}

	/** A {@code POST} without a body. */
	HttpResponse<String> post(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
	}

	/** A {@code POST} without a body, as a browser sends it from another origin. */
	HttpResponse<String> postFrom(String origin, String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).header("Origin", origin).POST(HttpRequest.BodyPublishers.noBody()));
	}

	HttpResponse<String> postJson(String path, String body) throws Exception {
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	HttpResponse<String> delete(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).DELETE());
	}

	/** The body of a {@code GET} of {@code path}, which must answer 200. */
	JsonNode getJson(String path) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
		return readTree(response);
	}

	JsonNode readTree(HttpResponse<String> response) {
		return this.json.readTree(response.body());
	}

	<T> T readValue(HttpResponse<String> response, TypeReference<T> type) {
		return this.json.readValue(response.body(), type);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		if (this.authorization != null) {
			request.header("Authorization", this.authorization);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}

package dev.ojs.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

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

	SampleClient(int port) {
		this.port = port;
	}

	HttpResponse<String> get(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).GET());
	}

	/** A {@code POST} without a body. */
	HttpResponse<String> post(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
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
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}

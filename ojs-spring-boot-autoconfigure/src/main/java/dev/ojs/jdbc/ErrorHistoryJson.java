package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.job.ErrorEntry;
import dev.ojs.retry.ErrorCode;

/**
 * The {@code errors} column: a JSON array of error entries in the spec's format (§10.1),
 * oldest first, e.g. {@code {"attempt":2,"type":"external.api_timeout","message":"...",
 * "code":"RETRY","timestamp":"2026-02-12T10:31:05Z","details":{}}}.
 */
final class ErrorHistoryJson {

	static final String EMPTY = "[]";

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private ErrorHistoryJson() {
	}

	static String write(List<ErrorEntry> errors) {
		if (errors.isEmpty()) {
			return EMPTY;
		}
		ArrayNode array = MAPPER.createArrayNode();
		for (ErrorEntry error : errors) {
			ObjectNode node = array.addObject();
			node.put("attempt", error.attempt());
			node.put("type", error.type());
			node.put("message", error.message());
			node.put("code", error.code().name());
			node.put("timestamp", error.timestamp().toString());
			node.set("details", MAPPER.valueToTree(error.details()));
		}
		return MAPPER.writeValueAsString(array);
	}

	@SuppressWarnings("unchecked")
	static List<ErrorEntry> read(String json) {
		if (json == null || json.length() <= 2) {
			return List.of();
		}
		JsonNode array = MAPPER.readTree(json);
		List<ErrorEntry> errors = new ArrayList<>(array.size());
		for (JsonNode node : array) {
			JsonNode details = node.get("details");
			errors.add(new ErrorEntry(node.path("attempt").asInt(), node.path("type").asString(),
					node.path("message").asString(), ErrorCode.valueOf(node.path("code").asString("RETRY")),
					Instant.parse(node.path("timestamp").asString()),
					(details != null && details.isObject()) ? MAPPER.treeToValue(details, Map.class) : Map.of()));
		}
		return errors;
	}

}

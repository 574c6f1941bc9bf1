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
 * <p>
 * What a handler reports is bounded before it is written, so no error can make the write
 * fail: the type is cut to {@value #MAX_TYPE_LENGTH} characters (the {@code last_error_type}
 * column), the message to {@value #MAX_MESSAGE_LENGTH}, and details whose JSON exceeds
 * {@value #MAX_DETAILS_LENGTH} characters (or that cannot be written as JSON) are replaced by
 * {@code {"truncated": "<their JSON, cut>"}}. NUL characters, which PostgreSQL cannot store
 * in text or {@code jsonb}, become U+FFFD.
 */
final class ErrorHistoryJson {

	static final String EMPTY = "[]";

	/** Length of the {@code last_error_type} column. */
	static final int MAX_TYPE_LENGTH = 255;

	static final int MAX_MESSAGE_LENGTH = 2000;

	static final int MAX_DETAILS_LENGTH = 4000;

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
			node.put("type", errorType(error.type()));
			node.put("message", bounded(error.message(), MAX_MESSAGE_LENGTH));
			node.put("code", error.code().name());
			node.put("timestamp", error.timestamp().toString());
			node.set("details", details(error.details()));
		}
		return MAPPER.writeValueAsString(array);
	}

	/** An error type as stored: at most {@value #MAX_TYPE_LENGTH} characters, no NUL. */
	static String errorType(String type) {
		return (type != null) ? cut(withoutNul(type), MAX_TYPE_LENGTH) : null;
	}

	private static String bounded(String text, int max) {
		if (text == null) {
			return null;
		}
		String clean = withoutNul(text);
		if (clean.length() <= max) {
			return clean;
		}
		String suffix = "... (" + clean.length() + " characters)";
		return cut(clean, max - suffix.length()) + suffix;
	}

	private static JsonNode details(Map<String, Object> details) {
		String json;
		try {
			JsonNode tree = MAPPER.valueToTree(details);
			json = MAPPER.writeValueAsString(tree);
			if (json.length() <= MAX_DETAILS_LENGTH && json.indexOf('\0') < 0 && !json.contains("\\u0000")) {
				return tree;
			}
		}
		catch (RuntimeException ex) {
			json = String.valueOf(details);
		}
		ObjectNode truncated = MAPPER.createObjectNode();
		truncated.put("truncated", bounded(json.replace("\\u0000", "\\uFFFD"), MAX_DETAILS_LENGTH));
		return truncated;
	}

	private static String withoutNul(String text) {
		return (text.indexOf('\0') >= 0) ? text.replace('\0', '\uFFFD') : text;
	}

	/** The first {@code max} characters, never splitting a surrogate pair. */
	private static String cut(String text, int max) {
		if (text.length() <= max) {
			return text;
		}
		int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
		return text.substring(0, end);
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

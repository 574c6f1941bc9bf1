package dev.ojs.web.http;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiError;
import dev.ojs.web.ApiException;
import dev.ojs.web.StorableText;

/** Reads and checks request bodies: every POST body is a JSON object (ojs-http-binding.md §6.1). */
final class Bodies {

	private Bodies() {
	}

	/**
	 * The body as a JSON object whose text the store can keep; {@code 400 invalid_payload} for
	 * text that is not JSON, {@code 400 invalid_request} for JSON that is not an object.
	 */
	static JsonNode object(@Nullable String body, JsonMapper jsonMapper) {
		if (body == null || body.isBlank()) {
			throw ApiException.invalidRequest("The request body must be a JSON object.", Map.of("field", "body"));
		}
		JsonNode node;
		try {
			node = jsonMapper.readTree(body);
		}
		catch (JacksonException ex) {
			throw new ApiException(400, ApiError.INVALID_PAYLOAD, "The request body is not valid JSON.", false,
					Map.of("field", "body"));
		}
		if (node == null || !node.isObject()) {
			throw EnqueueRequest.invalid("body", "The request body must be a JSON object.", "object", node);
		}
		StorableText.check(node, "");
		return node;
	}

	/** A required string field. */
	static String string(JsonNode body, String field) {
		JsonNode node = body.get(field);
		if (node == null || !node.isString() || node.stringValue().isEmpty()) {
			throw EnqueueRequest.invalid(field, "The '" + field + "' field is required and must be a string.", "string",
					node);
		}
		return node.stringValue();
	}

	/** An optional string field. */
	static @Nullable String optionalString(JsonNode body, String field, int maxLength) {
		JsonNode node = body.get(field);
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString() || node.stringValue().isBlank() || node.stringValue().length() > maxLength) {
			throw EnqueueRequest.invalid(field,
					"The '" + field + "' field must be a non-blank string of at most " + maxLength + " characters.",
					"string", node);
		}
		return node.stringValue();
	}

	/** An optional integer field within bounds, or {@code fallback}. */
	static long integer(JsonNode body, String field, long min, long max, long fallback) {
		JsonNode node = body.get(field);
		if (node == null || node.isNull()) {
			return fallback;
		}
		if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < min || node.longValue() > max) {
			throw EnqueueRequest.invalid(field,
					"The '" + field + "' field must be an integer from " + min + " to " + max + ".", "integer", node);
		}
		return node.longValue();
	}

}

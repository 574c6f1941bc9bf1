package dev.ojs.jdbc;

import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.LazyErrorHistory;
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

	/** Length of the {@code last_error_type} column. */
	static final int MAX_TYPE_LENGTH = 255;

	static final int MAX_MESSAGE_LENGTH = 2000;

	static final int MAX_DETAILS_LENGTH = 4000;

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Log logger = LogFactory.getLog(ErrorHistoryJson.class);

	private ErrorHistoryJson() {
	}

	/** One entry as a JSON object, as a row of the errors table holds it. */
	static String writeEntry(ErrorEntry error) {
		StringWriter json = new StringWriter(256);
		try (JsonGenerator generator = MAPPER.createGenerator(json)) {
			write(generator, error);
		}
		return json.toString();
	}

	private static void write(JsonGenerator generator, ErrorEntry error) {
		generator.writeStartObject();
		generator.writeNumberProperty("attempt", error.attempt());
		generator.writeStringProperty("type", errorType(error.type()));
		generator.writeStringProperty("message", bounded(error.message(), MAX_MESSAGE_LENGTH));
		generator.writeStringProperty("code", error.code().name());
		generator.writeStringProperty("timestamp", error.timestamp().toString());
		generator.writeName("details");
		if (error.details().isEmpty()) {
			generator.writeStartObject();
			generator.writeEndObject();
		}
		else {
			MAPPER.writeTree(generator, details(error.details()));
		}
		generator.writeEndObject();
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

	/**
	 * The history of job {@code jobId}, read when first used: the entries of its
	 * {@code errors} column ({@code column}, written before the errors table existed), then
	 * those {@code rows} supplies from the errors table, oldest first. A history that is not
	 * valid JSON in this format (only a manual edit can store one) reads as empty, with a
	 * warning, so that it cannot stop the job from running or failing.
	 */
	static List<ErrorEntry> readLazily(String jobId, @Nullable String column, Supplier<List<String>> rows) {
		return LazyErrorHistory.of(() -> {
			List<String> entries = rows.get();
			List<ErrorEntry> errors = new ArrayList<>(readOrWarn(jobId, column));
			if (!entries.isEmpty()) {
				errors.addAll(readOrWarn(jobId, "[" + String.join(",", entries) + "]"));
			}
			return errors;
		});
	}

	private static List<ErrorEntry> readOrWarn(String jobId, @Nullable String json) {
		try {
			return read(json);
		}
		catch (JacksonException | IllegalArgumentException | DateTimeParseException ex) {
			logger.warn("Ignoring the unreadable error history of job " + jobId + ": " + ex.getMessage());
			return List.of();
		}
	}

	@SuppressWarnings("unchecked")
	static List<ErrorEntry> read(@Nullable String json) {
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

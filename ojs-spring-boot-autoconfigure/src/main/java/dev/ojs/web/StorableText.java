package dev.ojs.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Refuses text the job store cannot keep: U+0000 (PostgreSQL refuses it in {@code text} and
 * {@code jsonb}) and unpaired UTF-16 surrogates (no UTF-8 spelling), in any string of a
 * request, a value or an object key. The refusal is {@code 400 invalid_request} naming the
 * field, so that such input never reaches the database to fail there as a {@code 500}.
 * Request bodies are checked as parsed ({@link #check(JsonNode, String)},
 * {@link #check(Object, String)}), query parameters by {@link StorableTextInterceptor}.
 */
public final class StorableText {

	/** What a refusal says after the field's name. */
	static final String MESSAGE = " holds a character that cannot be stored (U+0000 or an unpaired surrogate).";

	private StorableText() {
	}

	/** Whether every character of the text can be stored. */
	public static boolean isStorable(CharSequence text) {
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c == '\u0000') {
				return false;
			}
			if (Character.isHighSurrogate(c)) {
				if (i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
					i++;
					continue;
				}
				return false;
			}
			if (Character.isLowSurrogate(c)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Checks every string and object key of a parsed JSON body.
	 * @param path the name of {@code node} in the request, empty for the whole body; fields
	 * below read {@code path.key} and {@code path[index]}
	 */
	public static void check(@Nullable JsonNode node, String path) {
		if (node == null) {
			return;
		}
		if (node.isString()) {
			if (!isStorable(node.stringValue())) {
				throw refusal(path.isEmpty() ? "body" : path);
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				check(node.get(i), path + "[" + i + "]");
			}
		}
		else if (node.isObject()) {
			for (Map.Entry<String, JsonNode> entry : node.properties()) {
				String field = field(path, entry.getKey());
				check(entry.getValue(), field);
			}
		}
	}

	/** Checks every string and map key of a body read as maps, lists and scalars. */
	public static void check(@Nullable Object value, String path) {
		if (value instanceof JsonNode node) {
			check(node, path);
		}
		else if (value instanceof CharSequence text) {
			if (!isStorable(text)) {
				throw refusal(path.isEmpty() ? "body" : path);
			}
		}
		else if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				check(list.get(i), path + "[" + i + "]");
			}
		}
		else if (value instanceof Map<?, ?> map) {
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				String field = field(path, String.valueOf(entry.getKey()));
				check(entry.getValue(), field);
			}
		}
	}

	/** Checks one query parameter or path variable: its name and its values. */
	public static void checkParameter(String name, String... values) {
		if (!isStorable(name)) {
			throw refusal(printable(name));
		}
		for (String value : values) {
			if (value != null && !isStorable(value)) {
				throw refusal(name);
			}
		}
	}

	/** The field of a key below {@code path}; a key that cannot be stored is itself refused. */
	private static String field(String path, String key) {
		String field = path.isEmpty() ? key : path + "." + key;
		if (!isStorable(key)) {
			throw refusal(path.isEmpty() ? printable(key) : path + "." + printable(key));
		}
		return field;
	}

	/** The text with what cannot be stored shown as U+FFFD, to name a field by it. */
	private static String printable(String text) {
		StringBuilder printable = new StringBuilder(text.length());
		text.codePoints()
			.map((c) -> (c == 0 || (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) ? '\uFFFD' : c)
			.forEach(printable::appendCodePoint);
		return printable.toString();
	}

	private static ApiException refusal(String field) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("field", field);
		details.put("reason", "unstorable_character");
		return ApiException.invalidRequest("'" + field + "'" + MESSAGE, details);
	}

}

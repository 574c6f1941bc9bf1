package dev.ojs.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The reference runner's JSON paths ({@code ResolveJSONPath} of {@code assertions.go}):
 * {@code $.a.b}, indexes {@code [0][1]}, the wildcard {@code [*]} (the values of every
 * element that resolve, as a list) and the filter {@code [?(@.key=='value')]} (the first
 * element whose field prints as the value). A missing field resolves to {@code null}; a
 * step into the wrong type or past an array's end is an error.
 */
final class JsonPaths {

	private JsonPaths() {
	}

	/** A path that cannot be followed in a value. */
	static final class PathException extends Exception {

		PathException(String message) {
			super(message);
		}

	}

	static @Nullable Object resolve(String path, @Nullable Object data) throws PathException {
		if (path.startsWith("$.")) {
			path = path.substring(2);
		}
		List<String> parts = split(path);
		Object current = data;
		for (int i = 0; i < parts.size(); i++) {
			String part = parts.get(i);
			if (part.isEmpty()) {
				continue;
			}
			int bracket = part.indexOf('[');
			if (bracket < 0) {
				if (!(current instanceof Map<?, ?> object)) {
					throw new PathException("expected object at \"" + part + "\", got " + GoValues.typeName(current));
				}
				if (!object.containsKey(part)) {
					return null;
				}
				current = object.get(part);
				continue;
			}
			String field = part.substring(0, bracket);
			String rest = part.substring(bracket);
			if (!field.isEmpty()) {
				if (!(current instanceof Map<?, ?> object)) {
					throw new PathException("expected object at \"" + field + "\", got " + GoValues.typeName(current));
				}
				current = object.get(field);
			}
			if (rest.startsWith("[?(@.")) {
				int close = rest.indexOf(")]");
				if (close < 0) {
					throw new PathException("unclosed filter expression in path \"" + part + "\"");
				}
				String filter = rest.substring(5, close);
				rest = rest.substring(close + 2);
				current = filter(filter, part, current);
				if (!rest.isEmpty() && current != null && rest.startsWith(".")) {
					return resolve(rest.substring(1), current);
				}
				continue;
			}
			while (!rest.isEmpty()) {
				if (!rest.startsWith("[")) {
					throw new PathException("unexpected characters in path \"" + part + "\" at \"" + rest + "\"");
				}
				int close = rest.indexOf(']');
				if (close < 0) {
					throw new PathException("unclosed bracket in path \"" + part + "\"");
				}
				String index = rest.substring(1, close);
				rest = rest.substring(close + 1);
				if (index.equals("*")) {
					return wildcard(current, part, rest, parts.subList(i + 1, parts.size()));
				}
				current = element(current, index, part);
			}
		}
		return current;
	}

	/** The first element whose {@code key} prints ({@code %v}) as the quoted or bare value. */
	private static @Nullable Object filter(String filter, String part, @Nullable Object current)
			throws PathException {
		int equals = filter.indexOf("==");
		if (equals < 0) {
			throw new PathException("unsupported filter expression in path \"" + part + "\"");
		}
		String key = filter.substring(0, equals);
		String value = trim(filter.substring(equals + 2), "'\"");
		if (!(current instanceof List<?> array)) {
			throw new PathException("expected array for filter at \"" + part + "\", got " + GoValues.typeName(current));
		}
		for (Object item : array) {
			if (item instanceof Map<?, ?> object && object.containsKey(key)
					&& GoValues.format(object.get(key)).equals(value)) {
				return item;
			}
		}
		return null;
	}

	private static List<Object> wildcard(@Nullable Object current, String part, String rest, List<String> following)
			throws PathException {
		if (!(current instanceof List<?> array)) {
			throw new PathException("expected array at \"" + part + "\" for wildcard, got " + GoValues.typeName(current));
		}
		List<String> segments = new ArrayList<>();
		if (!rest.isEmpty()) {
			segments.add(rest);
		}
		segments.addAll(following);
		String remaining = String.join(".", segments);
		if (remaining.startsWith(".")) {
			remaining = remaining.substring(1);
		}
		List<Object> results = new ArrayList<>();
		for (Object item : array) {
			if (remaining.isEmpty()) {
				results.add(item);
				continue;
			}
			try {
				Object value = resolve(remaining, item);
				if (value != null) {
					results.add(value);
				}
			}
			catch (PathException ex) {
				// the reference skips elements that do not resolve
			}
		}
		return results;
	}

	private static @Nullable Object element(@Nullable Object current, String index, String part) throws PathException {
		int position;
		try {
			position = Integer.parseInt(index);
		}
		catch (NumberFormatException ex) {
			throw new PathException("invalid array index in path \"" + part + "\": " + index);
		}
		if (!(current instanceof List<?> array)) {
			throw new PathException("expected array at \"" + part + "\", got " + GoValues.typeName(current));
		}
		if (position < 0 || position >= array.size()) {
			throw new PathException("array index " + position + " out of bounds (length " + array.size() + ") at \""
					+ part + "\"");
		}
		return array.get(position);
	}

	/** Splits on the dots outside brackets; a trailing empty part is dropped. */
	static List<String> split(String path) {
		List<String> parts = new ArrayList<>();
		StringBuilder current = new StringBuilder();
		int depth = 0;
		for (int i = 0; i < path.length(); i++) {
			char c = path.charAt(i);
			if (c == '[') {
				depth++;
			}
			else if (c == ']') {
				depth--;
			}
			else if (c == '.' && depth == 0) {
				parts.add(current.toString());
				current.setLength(0);
				continue;
			}
			current.append(c);
		}
		if (current.length() > 0) {
			parts.add(current.toString());
		}
		return parts;
	}

	/** Go's {@code strings.Trim}: drops the leading and trailing characters found in the set. */
	private static String trim(String text, String set) {
		int start = 0;
		int end = text.length();
		while (start < end && set.indexOf(text.charAt(start)) >= 0) {
			start++;
		}
		while (end > start && set.indexOf(text.charAt(end - 1)) >= 0) {
			end--;
		}
		return text.substring(start, end);
	}

}

package dev.ojs.conformance;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import static dev.ojs.conformance.Matchers.describe;

/**
 * The reference runner's matchers written as an object ({@code matchObjectAssertion}): the
 * first operator present decides, in the order {@code $exists} (with {@code $type}),
 * {@code $match}, {@code $in}, {@code $size}, {@code $or}, {@code $empty} (always passes, as
 * in the reference), {@code range}; without one, each named field of the actual object must
 * match (a field matched by {@code "absent"} must not be there). Answers {@code null} on a
 * match, or why not.
 */
final class ObjectMatchers {

	private ObjectMatchers() {
	}

	static @Nullable String match(JsonNode matcher, @Nullable Object actual) {
		if (matcher.has("$exists")) {
			return exists(matcher, actual);
		}
		if (matcher.has("$match")) {
			JsonNode pattern = matcher.get("$match");
			return pattern.isString() ? Matchers.regex(pattern.stringValue(), actual) : "invalid $match value: " + pattern;
		}
		if (matcher.has("$in")) {
			return anyOf(matcher.get("$in"), actual, "$in");
		}
		if (matcher.has("$size")) {
			return size(matcher.get("$size"), actual);
		}
		if (matcher.has("$or")) {
			return anyOf(matcher.get("$or"), actual, "$or");
		}
		if (matcher.has("$empty")) {
			return null;
		}
		if (matcher.has("range")) {
			return range(matcher.get("range"), actual);
		}
		if (!(actual instanceof Map<?, ?> object)) {
			return "expected object, got " + describe(actual);
		}
		for (Map.Entry<String, JsonNode> field : matcher.properties()) {
			String name = field.getKey();
			JsonNode expected = field.getValue();
			if (expected.isString() && expected.stringValue().equals("absent")) {
				if (object.containsKey(name)) {
					return "field \"" + name + "\": expected absent, but field exists with value "
							+ GoValues.format(object.get(name));
				}
				continue;
			}
			if (!object.containsKey(name)) {
				return "field \"" + name + "\": expected to exist but is missing";
			}
			String mismatch = Matchers.match(expected, object.get(name));
			if (mismatch != null) {
				return "field \"" + name + "\": " + mismatch;
			}
		}
		return null;
	}

	private static @Nullable String exists(JsonNode matcher, @Nullable Object actual) {
		JsonNode exists = matcher.get("$exists");
		if (!exists.isBoolean()) {
			return "invalid $exists value: " + exists;
		}
		if (exists.booleanValue() && actual == null) {
			return "expected field to exist, but it is missing";
		}
		if (!exists.booleanValue() && actual != null) {
			return "expected field to not exist, but got " + describe(actual);
		}
		JsonNode type = matcher.get("$type");
		if (type != null && type.isString() && !GoValues.jsonType(actual).equals(type.stringValue())) {
			return "expected type \"" + type.stringValue() + "\", got \"" + GoValues.jsonType(actual) + "\"";
		}
		return null;
	}

	/** {@code $in} and {@code $or}: any alternative, itself a matcher, matches. */
	private static @Nullable String anyOf(JsonNode alternatives, @Nullable Object actual, String operator) {
		if (!alternatives.isArray()) {
			return "invalid " + operator + " value: " + alternatives;
		}
		for (JsonNode alternative : alternatives.values()) {
			if (Matchers.match(alternative, actual) == null) {
				return null;
			}
		}
		return operator.equals("$in") ? "value " + GoValues.marshal(actual) + " not found in $in list " + alternatives
				: "value " + GoValues.marshal(actual) + " did not match any $or alternative";
	}

	/** {@code $size}: an exact length, or {@code {"$gte": n}}. */
	private static @Nullable String size(JsonNode size, @Nullable Object actual) {
		if (!(actual instanceof List<?> list)) {
			return "expected array for $size, got " + describe(actual);
		}
		if (size.isIntegralNumber() && size.canConvertToInt()) {
			return (list.size() != size.intValue()) ? "expected array of size " + size.intValue() + ", got " + list.size()
					: null;
		}
		JsonNode least = size.isObject() ? size.get("$gte") : null;
		if (least != null && least.isIntegralNumber() && least.canConvertToInt()) {
			return (list.size() < least.intValue())
					? "expected array of size >= " + least.intValue() + ", got " + list.size() : null;
		}
		return "unsupported $size format: " + size;
	}

	/** {@code range}: {@code {"min": a, "max": b}}, either optional. */
	private static @Nullable String range(JsonNode range, @Nullable Object actual) {
		if (!range.isObject()) {
			return "invalid range value: " + range;
		}
		if (!(actual instanceof Double number)) {
			return "expected number for range check, got " + describe(actual);
		}
		JsonNode min = range.get("min");
		if (min != null && min.isNumber() && number < min.doubleValue()) {
			return "expected number >= " + GoValues.format(min.doubleValue()) + ", got " + GoValues.format(number);
		}
		JsonNode max = range.get("max");
		if (max != null && max.isNumber() && number > max.doubleValue()) {
			return "expected number <= " + GoValues.format(max.doubleValue()) + ", got " + GoValues.format(number);
		}
		return null;
	}

}

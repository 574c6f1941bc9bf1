package dev.ojs.conformance;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The reference runner's matchers ({@code MatchAssertion} of {@code assertions.go}): a
 * matcher is JSON; its type decides. {@code null} wants null (or a missing field); a string
 * is one of the named matchers ({@code any}, {@code absent}, {@code exists},
 * {@code string:uuidv7}, {@code string:datetime}, {@code number:range(a,b)},
 * {@code array:length:N}, {@code contains:X}, {@code ~1000}, {@code string:pattern(re)}, ...)
 * or else a literal; a number compares as float64 (whole numbers exactly); an array matches
 * element by element; an object is an operator ({@code $exists}/{@code $type},
 * {@code $match}, {@code $in}, {@code $size}, {@code $or}, {@code $empty}, {@code range}) or
 * else matches the named fields. Each method answers {@code null} on a match, or why not.
 */
final class Matchers {

	private Matchers() {
	}

	/** Matches a value against a matcher given as JSON text (templates already resolved). */
	static @Nullable String match(String matcher, @Nullable Object actual) {
		JsonNode node;
		try {
			node = ConformanceCases.JSON.readTree(matcher);
		}
		catch (RuntimeException ex) {
			return "unknown matcher format: " + matcher;
		}
		return match(node, actual);
	}

	static @Nullable String match(JsonNode matcher, @Nullable Object actual) {
		if (matcher.isNull()) {
			return (actual != null) ? "expected null, got " + describe(actual) : null;
		}
		if (matcher.isString()) {
			return StringMatchers.match(matcher.stringValue(), actual);
		}
		if (matcher.isNumber()) {
			return number(matcher.doubleValue(), actual);
		}
		if (matcher.isBoolean()) {
			if (!(actual instanceof Boolean bool)) {
				return "expected boolean " + matcher.booleanValue() + ", got " + describe(actual);
			}
			return (bool != matcher.booleanValue()) ? "expected " + matcher.booleanValue() + ", got " + bool : null;
		}
		if (matcher.isArray()) {
			return array(matcher, actual);
		}
		if (matcher.isObject()) {
			return ObjectMatchers.match(matcher, actual);
		}
		return "unknown matcher format: " + matcher;
	}

	/** A whole expected number against a whole actual compares as int64, else within 1e-9. */
	static @Nullable String number(double expected, @Nullable Object actual) {
		if (!(actual instanceof Double number)) {
			return "expected number " + GoValues.format(expected) + ", got " + describe(actual);
		}
		if (expected == Math.rint(expected) && number == Math.rint(number)) {
			return ((long) expected != (long) number.doubleValue())
					? "expected " + (long) expected + ", got " + (long) number.doubleValue() : null;
		}
		return (Math.abs(expected - number) > 1e-9)
				? "expected " + GoValues.format(expected) + ", got " + GoValues.format(number) : null;
	}

	private static @Nullable String array(JsonNode matcher, @Nullable Object actual) {
		if (!(actual instanceof List<?> list)) {
			return "expected array, got " + describe(actual);
		}
		if (list.size() != matcher.size()) {
			return "expected array of length " + matcher.size() + ", got length " + list.size();
		}
		for (int i = 0; i < list.size(); i++) {
			String mismatch = match(matcher.get(i), list.get(i));
			if (mismatch != null) {
				return "[" + i + "]: " + mismatch;
			}
		}
		return null;
	}

	/** A regular expression found anywhere in a string (Go's {@code MatchString}). */
	static @Nullable String regex(String regex, @Nullable Object actual) {
		if (!(actual instanceof String text)) {
			return "expected string matching pattern \"" + regex + "\", got " + describe(actual);
		}
		try {
			return Pattern.compile(regex).matcher(text).find() ? null
					: "expected string matching pattern \"" + regex + "\", got \"" + text + "\"";
		}
		catch (PatternSyntaxException ex) {
			return "invalid regex pattern \"" + regex + "\": " + ex.getDescription();
		}
	}

	/** A value for a message: its Go type and JSON. */
	static String describe(@Nullable Object actual) {
		return GoValues.typeName(actual) + ": " + GoValues.marshal(actual);
	}

}

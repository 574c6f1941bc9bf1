package dev.ojs.conformance;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import static dev.ojs.conformance.Matchers.describe;

/**
 * The reference runner's matchers written as a string ({@code matchStringAssertion}): named
 * checks first, then prefixed ones, then a literal string. Answers {@code null} on a match,
 * or why not.
 */
final class StringMatchers {

	/** {@code ~N} allows N ± this percentage (the reference's default tolerance; no floor here). */
	static final double TOLERANCE_PERCENT = 50;

	// Go's $ is the end of text: \z, not Java's $ (which also matches before a final newline)
	private static final Pattern UUID = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\z");

	private static final Pattern UUID_V7 = Pattern
		.compile("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\z");

	private static final Pattern DATETIME = Pattern
		.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})\\z");

	private static final Pattern RANGE = Pattern.compile("^number:range\\((-?\\d+(?:\\.\\d+)?),\\s*(-?\\d+(?:\\.\\d+)?)\\)\\z");

	private static final Pattern LENGTH = Pattern.compile("^array:length\\((\\d+)\\)\\z");

	private static final Pattern APPROXIMATE = Pattern.compile("^~(\\d+(?:\\.\\d+)?)\\z");

	private StringMatchers() {
	}

	static @Nullable String match(String matcher, @Nullable Object actual) {
		switch (matcher) {
			case "any":
				return null;
			case "absent":
				return (actual != null) ? "expected field to be absent, but got " + describe(actual) : null;
			case "exists":
				return (actual == null) ? "expected field to exist, but it is missing" : null;
			case "string:nonempty", "string:non_empty":
				if (!(actual instanceof String text)) {
					return "expected non-empty string, got " + describe(actual);
				}
				return text.isEmpty() ? "expected non-empty string, got empty string" : null;
			case "string:uuid":
				return pattern(UUID, "valid UUID", actual);
			case "string:uuidv7":
				return pattern(UUID_V7, "valid UUIDv7", actual);
			case "string:datetime":
				return pattern(DATETIME, "RFC 3339 datetime", actual);
			case "number:positive":
				if (!(actual instanceof Double number)) {
					return "expected positive number, got " + describe(actual);
				}
				return (number <= 0) ? "expected positive number, got " + GoValues.format(number) : null;
			case "number:non_negative":
				if (!(actual instanceof Double number)) {
					return "expected non-negative number, got " + describe(actual);
				}
				return (number < 0) ? "expected non-negative number, got " + GoValues.format(number) : null;
			case "array:nonempty":
				if (!(actual instanceof List<?> list)) {
					return "expected non-empty array, got " + describe(actual);
				}
				return list.isEmpty() ? "expected non-empty array, got empty array" : null;
			case "array:empty":
				if (!(actual instanceof List<?> list)) {
					return "expected empty array, got " + describe(actual);
				}
				return list.isEmpty() ? null : "expected empty array, got array with " + list.size() + " elements";
			default:
				return prefixed(matcher, actual);
		}
	}

	private static @Nullable String prefixed(String matcher, @Nullable Object actual) {
		if (matcher.startsWith("array:min_length:")) {
			return length(matcher.substring("array:min_length:".length()), actual, true);
		}
		if (matcher.startsWith("array:min:")) {
			return length(matcher.substring("array:min:".length()), actual, true);
		}
		if (matcher.startsWith("array:length:")) {
			return length(matcher.substring("array:length:".length()), actual, false);
		}
		if (matcher.startsWith("contains:")) {
			return contains(matcher.substring("contains:".length()), actual, true);
		}
		if (matcher.startsWith("not_contains:")) {
			return contains(matcher.substring("not_contains:".length()), actual, false);
		}
		if (matcher.startsWith("string:contains:")) {
			String part = matcher.substring("string:contains:".length());
			if (!(actual instanceof String text)) {
				return "expected string containing \"" + part + "\", got " + describe(actual);
			}
			return text.contains(part) ? null : "expected string containing \"" + part + "\", got \"" + text + "\"";
		}
		Matcher range = RANGE.matcher(matcher);
		if (range.find()) {
			double low = Double.parseDouble(range.group(1));
			double high = Double.parseDouble(range.group(2));
			if (!(actual instanceof Double number)) {
				return "expected number in range [" + low + ", " + high + "], got " + describe(actual);
			}
			return (number < low || number > high)
					? "expected number in range [" + GoValues.format(low) + ", " + GoValues.format(high) + "], got "
							+ GoValues.format(number)
					: null;
		}
		Matcher length = LENGTH.matcher(matcher);
		if (length.find()) {
			return length(length.group(1), actual, false);
		}
		Matcher approximate = APPROXIMATE.matcher(matcher);
		if (approximate.find()) {
			return approximately(Double.parseDouble(approximate.group(1)), actual);
		}
		if (matcher.startsWith("string:pattern(") && matcher.endsWith(")")) {
			return Matchers.regex(matcher.substring("string:pattern(".length(), matcher.length() - 1), actual);
		}
		if (!(actual instanceof String text)) {
			return "expected string \"" + matcher + "\", got " + describe(actual);
		}
		return text.equals(matcher) ? null : "expected \"" + matcher + "\", got \"" + text + "\"";
	}

	private static @Nullable String pattern(Pattern pattern, String what, @Nullable Object actual) {
		if (!(actual instanceof String text)) {
			return "expected " + what + " string, got " + describe(actual);
		}
		return pattern.matcher(text).find() ? null : "expected " + what + ", got \"" + text + "\"";
	}

	/** {@code array:length:N} (exactly N elements) or {@code array:min_length:N} (at least N). */
	private static @Nullable String length(String count, @Nullable Object actual, boolean atLeast) {
		String wanted = atLeast ? "array with min length " : "array of length ";
		int length;
		try {
			length = Integer.parseInt(count);
		}
		catch (NumberFormatException ex) {
			return "invalid " + wanted + "\"" + count + "\"";
		}
		if (!(actual instanceof List<?> list)) {
			return "expected " + wanted + length + ", got " + describe(actual);
		}
		boolean matches = atLeast ? list.size() >= length : list.size() == length;
		return matches ? null : "expected " + wanted + length + ", got length " + list.size();
	}

	/** Whether an element prints ({@code %v}) as the text. */
	private static @Nullable String contains(String element, @Nullable Object actual, boolean wanted) {
		if (!(actual instanceof List<?> list)) {
			return "expected array for " + (wanted ? "" : "not_") + "contains check, got " + describe(actual);
		}
		boolean found = list.stream().anyMatch((item) -> GoValues.format(item).equals(element));
		if (found == wanted) {
			return null;
		}
		return wanted ? "expected array to contain \"" + element + "\", but it was not found"
				: "expected array to not contain \"" + element + "\", but it was found";
	}

	private static @Nullable String approximately(double expected, @Nullable Object actual) {
		if (!(actual instanceof Double number)) {
			return "expected approximate number ~" + GoValues.format(expected) + ", got " + describe(actual);
		}
		double tolerance = expected * TOLERANCE_PERCENT / 100.0;
		double difference = Math.abs(number - expected);
		return (difference > tolerance) ? "expected ~" + GoValues.format(expected) + " (tolerance "
				+ (int) TOLERANCE_PERCENT + "%), got " + GoValues.format(number) : null;
	}

}

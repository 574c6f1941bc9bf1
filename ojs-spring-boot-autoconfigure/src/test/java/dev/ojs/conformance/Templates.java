package dev.ojs.conformance;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Template references {@code {{steps.<id>.response.body.<path>}}} in paths, bodies and
 * assertions, replaced in the text as the reference runner does: a string as it is, a whole
 * number without decimals, another number as Go prints it, anything else as JSON. A
 * reference to a step that has not run, a body that is not a JSON object or a path that
 * does not resolve stays as written.
 */
final class Templates {

	private static final Pattern REFERENCE = Pattern.compile("\\{\\{steps\\.([^.]+)\\.response\\.body\\.([^}]+)\\}\\}");

	private Templates() {
	}

	static String resolve(String input, Map<String, StepResult> results) {
		if (!input.contains("{{")) {
			return input;
		}
		Matcher matcher = REFERENCE.matcher(input);
		StringBuilder resolved = new StringBuilder();
		while (matcher.find()) {
			matcher.appendReplacement(resolved, Matcher.quoteReplacement(value(matcher, results)));
		}
		matcher.appendTail(resolved);
		return resolved.toString();
	}

	private static String value(Matcher reference, Map<String, StepResult> results) {
		StepResult result = results.get(reference.group(1));
		if (result == null || result.parsed() == null) {
			return reference.group();
		}
		Object value;
		try {
			value = JsonPaths.resolve(reference.group(2), result.parsed());
		}
		catch (JsonPaths.PathException ex) {
			return reference.group();
		}
		if (value == null) {
			return reference.group();
		}
		if (value instanceof String text) {
			return text;
		}
		if (value instanceof Double number) {
			return GoValues.isWhole(number) ? Long.toString(number.longValue()) : GoValues.format(number);
		}
		return GoValues.marshal(value);
	}

}

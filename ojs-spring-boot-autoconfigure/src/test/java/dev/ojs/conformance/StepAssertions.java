package dev.ojs.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.ojs.conformance.ConformanceCase.Assertions;
import dev.ojs.conformance.ConformanceCase.Step;
import dev.ojs.conformance.ConformanceCase.Timing;

/**
 * Checks a step's answer against its assertions as the reference runner's
 * {@code evaluateAssertions} does: status, {@code status_in}, body paths (only when the body
 * is a JSON object; a path that cannot be followed fails unless its matcher is
 * {@code "absent"}), a top-level {@code $or} of alternative bodies, {@code body_absent},
 * headers, timing and {@code body_contains}. Templates in body paths and matchers are
 * resolved first.
 */
final class StepAssertions {

	/** Tolerance of {@code timing_ms.approximate}: this percentage, at least {@value #MIN_TOLERANCE_MS} ms. */
	private static final double TIMING_TOLERANCE_PERCENT = 50;

	private static final double MIN_TOLERANCE_MS = 100;

	private StepAssertions() {
	}

	static List<Failure> evaluate(Step step, StepResult result, Map<String, StepResult> results) {
		Assertions assertions = step.assertions();
		List<Failure> failures = new ArrayList<>();
		if (assertions == null) {
			return failures;
		}
		String id = step.id();
		// the body too: a refusal's error message tells what the server lacks
		String actualStatus = result.status() + (result.body().isEmpty() ? "" : " " + result.body());
		if (assertions.status() != null) {
			String mismatch = status(assertions.status(), result.status());
			if (mismatch != null) {
				failures.add(new Failure(id, "status", assertions.status().toString(), actualStatus, mismatch));
			}
		}
		if (!assertions.statusIn().isEmpty() && !assertions.statusIn().contains(result.status())) {
			failures.add(new Failure(id, "status", "one of " + assertions.statusIn(), actualStatus,
					"Expected status in " + assertions.statusIn() + ", got " + result.status()));
		}
		body(id, assertions.body(), result, results, failures);
		for (String path : assertions.bodyAbsent()) {
			if (resolveOrNull(path, result.parsed()) != null) {
				failures.add(new Failure(id, path, "absent", GoValues.marshal(resolveOrNull(path, result.parsed())),
						"Expected field \"" + path + "\" to be absent"));
			}
		}
		headers(id, assertions.headers(), result, failures);
		timing(id, assertions.timing(), result, failures);
		for (String part : assertions.bodyContains()) {
			if (!result.body().contains(part)) {
				failures.add(new Failure(id, "body_contains", "body containing \"" + part + "\"", result.body(),
						"Response body does not contain \"" + part + "\""));
			}
		}
		return failures;
	}

	private static void body(String id, Map<String, String> body, StepResult result, Map<String, StepResult> results,
			List<Failure> failures) {
		String alternatives = body.get("$or");
		if (alternatives != null && !anyAlternative(alternatives, result, results)) {
			failures.add(new Failure(id, "$or", alternatives, GoValues.marshal(result.parsed()),
					"No $or alternative matched"));
		}
		if (result.parsed() == null) {
			return;
		}
		body.forEach((path, matcher) -> {
			if (path.startsWith("$") && !path.startsWith("$.")) {
				return;
			}
			String resolvedPath = Templates.resolve(path, results);
			String resolvedMatcher = Templates.resolve(matcher, results);
			Object value;
			try {
				value = JsonPaths.resolve(resolvedPath, result.parsed());
			}
			catch (JsonPaths.PathException ex) {
				if (!resolvedMatcher.equals("\"absent\"")) {
					failures.add(new Failure(id, path, resolvedMatcher, GoValues.marshal(result.parsed()),
							"Failed to resolve path \"" + path + "\": " + ex.getMessage()));
				}
				return;
			}
			String mismatch = Matchers.match(resolvedMatcher, value);
			if (mismatch != null) {
				failures.add(new Failure(id, path, resolvedMatcher, GoValues.marshal(value),
						"Assertion failed at \"" + path + "\": " + mismatch));
			}
		});
	}

	/** A top-level {@code $or}: some alternative body whose every path matches (paths are not templated). */
	private static boolean anyAlternative(String alternatives, StepResult result, Map<String, StepResult> results) {
		JsonNode list;
		try {
			list = ConformanceCases.JSON.readTree(alternatives);
		}
		catch (RuntimeException ex) {
			return true;
		}
		if (!list.isArray()) {
			return true;
		}
		// Go resolves paths in a nil map as missing fields, not as errors
		Object parsed = (result.parsed() != null) ? result.parsed() : Map.of();
		for (JsonNode alternative : list.values()) {
			if (!alternative.isObject()) {
				continue;
			}
			boolean matched = true;
			for (Map.Entry<String, JsonNode> entry : alternative.properties()) {
				String matcher = Templates.resolve(ConformanceCases.JSON.writeValueAsString(entry.getValue()), results);
				try {
					if (Matchers.match(matcher, JsonPaths.resolve(entry.getKey(), parsed)) != null) {
						matched = false;
						break;
					}
				}
				catch (JsonPaths.PathException ex) {
					matched = false;
					break;
				}
			}
			if (matched) {
				return true;
			}
		}
		return false;
	}

	/** {@code status}: a number, {@code "one_of:a,b"}, a string matcher, or {@code {"$in": [a, b]}}. */
	static @Nullable String status(JsonNode expected, int actual) {
		if (expected.isIntegralNumber() && expected.canConvertToInt()) {
			return (actual != expected.intValue()) ? "Expected status " + expected.intValue() + ", got " + actual : null;
		}
		if (expected.isString()) {
			String matcher = expected.stringValue();
			if (matcher.startsWith("one_of:")) {
				String codes = matcher.substring("one_of:".length());
				for (String code : codes.split(",", -1)) {
					try {
						if (Integer.parseInt(code.strip()) == actual) {
							return null;
						}
					}
					catch (NumberFormatException ex) {
						return "invalid status code \"" + code.strip() + "\" in one_of matcher";
					}
				}
				return "expected status one of [" + codes + "], got " + actual;
			}
			return Matchers.match(expected, (double) actual);
		}
		JsonNode in = expected.isObject() ? expected.get("$in") : null;
		if (in != null && in.isArray() && in.values().stream().allMatch((code) -> code.isIntegralNumber())) {
			List<Integer> codes = in.values().stream().map(JsonNode::intValue).toList();
			return codes.contains(actual) ? null : "Expected status in " + codes + ", got " + actual;
		}
		return "Unknown status assertion format: " + expected;
	}

	/** Header name to an exact value, or a regular expression with {@code {"$match": ...}}. */
	private static void headers(String id, @Nullable JsonNode headers, StepResult result, List<Failure> failures) {
		if (headers == null || !headers.isObject()) {
			return;
		}
		Map<String, String> exact = new LinkedHashMap<>();
		Map<String, String> patterns = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> header : headers.properties()) {
			JsonNode value = header.getValue();
			if (value.isString()) {
				exact.put(header.getKey(), value.stringValue());
			}
			else if (value.isObject() && value.get("$match") != null) {
				patterns.put(header.getKey(), value.get("$match").asString());
			}
			else if (value.isObject() && value.get("$eq") != null) {
				exact.put(header.getKey(), value.get("$eq").asString());
			}
		}
		exact.forEach((name, expected) -> header(id, name, expected, false, result, failures));
		patterns.forEach((name, expected) -> header(id, name, expected, true, result, failures));
	}

	private static void header(String id, String name, String expected, boolean regex, StepResult result,
			List<Failure> failures) {
		String actual = result.headers().firstValue(name).orElse("");
		boolean matched;
		try {
			matched = regex ? Pattern.compile(expected).matcher(actual).find() : actual.equals(expected);
		}
		catch (PatternSyntaxException ex) {
			matched = false;
		}
		if (!matched) {
			failures.add(new Failure(id, "header:" + name, expected, actual,
					"Expected header \"" + name + "\"=\"" + expected + "\", got \"" + actual + "\""));
		}
	}

	private static void timing(String id, @Nullable Timing timing, StepResult result, List<Failure> failures) {
		if (timing == null) {
			return;
		}
		long took = result.durationMs();
		if (timing.lessThan() != null && took >= timing.lessThan()) {
			failures.add(new Failure(id, "timing", "< " + timing.lessThan() + "ms", took + "ms",
					"Expected response in < " + timing.lessThan() + "ms, took " + took + "ms"));
		}
		if (timing.greaterThan() != null && took <= timing.greaterThan()) {
			failures.add(new Failure(id, "timing", "> " + timing.greaterThan() + "ms", took + "ms",
					"Expected response in > " + timing.greaterThan() + "ms, took " + took + "ms"));
		}
		if (timing.approximate() != null) {
			double expected = timing.approximate();
			double tolerance = Math.max(expected * TIMING_TOLERANCE_PERCENT / 100.0, MIN_TOLERANCE_MS);
			if (Math.abs(took - expected) > tolerance) {
				failures.add(new Failure(id, "timing", "~" + timing.approximate() + "ms", took + "ms",
						"timing assertion failed: tolerance " + (long) tolerance + "ms"));
			}
		}
	}

	private static @Nullable Object resolveOrNull(String path, @Nullable Object data) {
		try {
			return JsonPaths.resolve(path, data);
		}
		catch (JsonPaths.PathException ex) {
			return null;
		}
	}

}

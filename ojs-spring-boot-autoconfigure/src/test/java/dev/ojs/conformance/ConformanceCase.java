package dev.ojs.conformance;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One test case of the conformance suite ({@code test-case-reference.md}): the steps to run
 * in order, with an optional setup and teardown.
 *
 * @param id the {@code test_id}, e.g. {@code L0-ENV-001}
 * @param level the conformance level, 0–4
 * @param category its group within the level, e.g. {@code envelope}
 * @param name its kebab-case name (the file's name)
 * @param source the file it was read from
 * @param setup steps run first; a failure among them ends the case as an error
 * @param steps the steps under test
 * @param teardown steps run last, their failures ignored
 */
record ConformanceCase(String id, int level, String category, String name, Path source, List<Step> setup,
		List<Step> steps, List<Step> teardown) {

	/**
	 * One HTTP interaction, or {@code WAIT} (a pause) or {@code ASSERT}.
	 *
	 * @param id unique within the case; templates refer to its response by it
	 * @param action the HTTP method, {@code WAIT} or {@code ASSERT}
	 * @param path the request path, with templates
	 * @param headers request headers
	 * @param body the request body as JSON text, with templates; {@code null} for none
	 * @param rawBody a body sent exactly as written ({@code raw_body}), e.g. text that is not JSON
	 * @param delayMs a pause before the step
	 * @param durationMs the pause of a {@code WAIT}
	 * @param parallelWith the step this one runs at the same time as
	 * @param assertions what the answer must satisfy; {@code null} for nothing
	 */
	record Step(String id, String action, String path, Map<String, String> headers, @Nullable String body,
			@Nullable String rawBody, int delayMs, int durationMs, @Nullable String parallelWith,
			@Nullable Assertions assertions) {
	}

	/**
	 * The expected outcome of a step.
	 *
	 * @param status {@code status}: a number, a string matcher or {@code {"$in": [...]}}
	 * @param statusIn {@code status_in}
	 * @param body JSON path to matcher (as JSON text, with templates); {@code $or} holds alternatives
	 * @param bodyAbsent paths that must not resolve to a value
	 * @param bodyContains texts the raw body must contain
	 * @param headers header name to value, or to {@code {"$match": regex}} / {@code {"$eq": value}}
	 * @param timing {@code timing_ms}
	 */
	record Assertions(@Nullable JsonNode status, List<Integer> statusIn, Map<String, String> body,
			List<String> bodyAbsent, List<String> bodyContains, @Nullable JsonNode headers, @Nullable Timing timing) {
	}

	/** {@code timing_ms}: bounds on the response time in milliseconds. */
	record Timing(@Nullable Integer lessThan, @Nullable Integer greaterThan, @Nullable Integer approximate) {
	}

}

package dev.ojs.conformance;

import java.net.http.HttpHeaders;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one step, as later steps' templates and the step's own assertions see it.
 *
 * @param stepId the step's id
 * @param status the HTTP status (0 when no request was made or it failed)
 * @param headers the response headers
 * @param body the raw response body
 * @param durationMs the time until the response headers arrived
 * @param parsed the body when it is a JSON object ({@link GoValues}), else {@code null}: a
 * body that is an array or not JSON is invisible to paths and templates, as in the
 * reference runner
 */
record StepResult(String stepId, int status, HttpHeaders headers, String body, long durationMs,
		@Nullable Map<String, @Nullable Object> parsed) {

	/** The result of a step that made no request. */
	static StepResult none(String stepId) {
		return new StepResult(stepId, 0, HttpHeaders.of(Map.of(), (name, value) -> true), "", 0, null);
	}

}

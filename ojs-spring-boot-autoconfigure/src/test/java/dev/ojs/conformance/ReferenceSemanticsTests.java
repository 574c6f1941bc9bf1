package dev.ojs.conformance;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The runner reads paths, templates and matchers as the reference runner
 * ({@code reference/assertions.go}, {@code reference/runner.go}) does, Go's quirks included.
 */
class ReferenceSemanticsTests {

	private static final Map<String, Object> BODY = json("""
			{"job": {"id": "0195f3a0-1b2c-7d3e-8f40-0123456789ab", "attempt": 2, "result": {"b": 1, "a": "<x>"},
			  "created_at": "2026-01-15T10:30:00.123Z", "meta": null},
			 "jobs": [{"id": "a", "state": "active", "n": 1000000}, {"id": "b", "state": "available"}, {"x": 1}]}
			""");

	@Test
	void pathsFollowFieldsIndexesWildcardsAndFilters() throws Exception {
		assertThat(JsonPaths.resolve("$.job.attempt", BODY)).isEqualTo(2.0);
		assertThat(JsonPaths.resolve("$.jobs[1].state", BODY)).isEqualTo("available");
		assertThat(JsonPaths.resolve("$.jobs[*].id", BODY)).isEqualTo(List.of("a", "b"));
		assertThat(JsonPaths.resolve("$.jobs[?(@.state=='available')].id", BODY)).isEqualTo("b");
		// a filter compares Go's %v of the field: 1000000 prints as 1e+06
		assertThat(JsonPaths.resolve("$.jobs[?(@.n==1e+06)].id", BODY)).isEqualTo("a");
		assertThat(JsonPaths.resolve("$.job.missing", BODY)).isNull();
		assertThat(JsonPaths.resolve("$.job.meta", BODY)).isNull();
		assertThatExceptionOfType(JsonPaths.PathException.class)
			.isThrownBy(() -> JsonPaths.resolve("$.jobs[3].id", BODY))
			.withMessageContaining("out of bounds");
		assertThatExceptionOfType(JsonPaths.PathException.class)
			.isThrownBy(() -> JsonPaths.resolve("$.job.id.deeper", BODY));
	}

	@Test
	void templatesInsertStringsWholeNumbersAndJson() {
		Map<String, StepResult> results = Map.of("step-1", new StepResult("step-1", 201,
				HttpHeaders.of(Map.of(), (name, value) -> true), "", 1, BODY));
		assertThat(Templates.resolve("/ojs/v1/jobs/{{steps.step-1.response.body.job.id}}", results))
			.isEqualTo("/ojs/v1/jobs/0195f3a0-1b2c-7d3e-8f40-0123456789ab");
		assertThat(Templates.resolve("{\"n\": {{steps.step-1.response.body.job.attempt}}}", results))
			.isEqualTo("{\"n\": 2}");
		// objects as Go's json.Marshal writes them: keys sorted, HTML characters escaped
		assertThat(Templates.resolve("{{steps.step-1.response.body.job.result}}", results))
			.isEqualTo("{\"a\":\"\\u003cx\\u003e\",\"b\":1}");
		assertThat(Templates.resolve("{{steps.step-9.response.body.job.id}}", results))
			.isEqualTo("{{steps.step-9.response.body.job.id}}");
		assertThat(Templates.resolve("{{steps.step-1.response.body.job.meta}}", results))
			.isEqualTo("{{steps.step-1.response.body.job.meta}}");
	}

	@Test
	void stringMatchers() {
		assertThat(Matchers.match("\"string:uuidv7\"", "0195f3a0-1b2c-7d3e-8f40-0123456789ab")).isNull();
		assertThat(Matchers.match("\"string:uuidv7\"", "0195f3a0-1b2c-4d3e-8f40-0123456789ab")).isNotNull();
		assertThat(Matchers.match("\"string:datetime\"", "2026-01-15T10:30:00.123+01:00")).isNull();
		// Go's $ is the end of the text
		assertThat(Matchers.match("\"string:datetime\"", "2026-01-15T10:30:00Z\n")).isNotNull();
		assertThat(Matchers.match("\"any\"", null)).isNull();
		assertThat(Matchers.match("\"absent\"", null)).isNull();
		assertThat(Matchers.match("\"exists\"", null)).isNotNull();
		assertThat(Matchers.match("\"array:length:2\"", List.of("a", "b"))).isNull();
		assertThat(Matchers.match("\"array:length(3)\"", List.of("a", "b"))).isNotNull();
		assertThat(Matchers.match("\"array:min_length:1\"", List.of())).isNotNull();
		assertThat(Matchers.match("\"contains:42\"", List.of(42.0))).isNull();
		assertThat(Matchers.match("\"number:range(400,422)\"", 404.0)).isNull();
		assertThat(Matchers.match("\"string:pattern(^test\\\\.)\"", "test.echo")).isNull();
		assertThat(Matchers.match("\"available\"", "active")).isNotNull();
	}

	@Test
	void approximateNumbersAllowHalfTheExpectedValue() {
		assertThat(Matchers.match("\"~2000\"", 1000.0)).isNull();
		assertThat(Matchers.match("\"~2000\"", 3000.0)).isNull();
		assertThat(Matchers.match("\"~2000\"", 3001.0)).isNotNull();
		assertThat(Matchers.match("\"~2000\"", "2000")).isNotNull();
	}

	@Test
	void numbersBooleansNullAndArrays() {
		assertThat(Matchers.match("0", 0.0)).isNull();
		assertThat(Matchers.match("0", "0")).isNotNull();
		assertThat(Matchers.match("true", true)).isNull();
		assertThat(Matchers.match("null", null)).isNull();
		assertThat(Matchers.match("[]", List.of())).isNull();
		assertThat(Matchers.match("[\"string:nonempty\", 1]", List.of("a", 1.0))).isNull();
		assertThat(Matchers.match("[1]", List.of(1.0, 2.0))).isNotNull();
		assertThat(Matchers.match("\"{{unresolved\"", "x")).isNotNull();
		assertThat(Matchers.match("{not json", "x")).startsWith("unknown matcher format");
	}

	@Test
	void objectOperators() {
		assertThat(Matchers.match("{\"$exists\": true, \"$type\": \"string\"}", "x")).isNull();
		assertThat(Matchers.match("{\"$exists\": true, \"$type\": \"string\"}", 1.0)).isNotNull();
		assertThat(Matchers.match("{\"$exists\": false}", null)).isNull();
		assertThat(Matchers.match("{\"$in\": [\"retryable\", \"available\"]}", "available")).isNull();
		assertThat(Matchers.match("{\"$in\": [\"string:uuidv7\", 3]}", 3.0)).isNull();
		assertThat(Matchers.match("{\"$or\": [\"string:nonempty\", {\"$exists\": false}]}", null)).isNull();
		assertThat(Matchers.match("{\"$size\": {\"$gte\": 2}}", List.of(1.0))).isNotNull();
		assertThat(Matchers.match("{\"$match\": \"^application/(openjobspec\\\\+)?json\"}", "application/json"))
			.isNull();
		assertThat(Matchers.match("{\"range\": {\"min\": 1000}}", 999.0)).isNotNull();
		assertThat(Matchers.match("{\"$empty\": true}", "anything")).isNull();
		assertThat(Matchers.match("{\"code\": \"conflict\", \"hint\": \"absent\"}", Map.of("code", "conflict")))
			.isNull();
	}

	@Test
	void statusAssertions() {
		assertThat(StepAssertions.status(ConformanceCases.JSON.readTree("201"), 201)).isNull();
		assertThat(StepAssertions.status(ConformanceCases.JSON.readTree("\"one_of:400,422\""), 422)).isNull();
		assertThat(StepAssertions.status(ConformanceCases.JSON.readTree("\"number:range(400,422)\""), 404)).isNull();
		assertThat(StepAssertions.status(ConformanceCases.JSON.readTree("{\"$in\": [200, 204]}"), 204)).isNull();
		assertThat(StepAssertions.status(ConformanceCases.JSON.readTree("{\"$in\": [200, 204]}"), 404)).isNotNull();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> json(String text) {
		return (Map<String, Object>) GoValues.of(ConformanceCases.JSON.readTree(text));
	}

}

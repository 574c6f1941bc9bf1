package dev.ojs.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.conformance.ConformanceCase.Assertions;
import dev.ojs.conformance.ConformanceCase.Step;
import dev.ojs.conformance.ConformanceCase.Timing;

/**
 * Reads the cases of a suite folder: every {@code *.json} below it, in {@code test_id}
 * order as the reference runner sorts them (then by name: the suite gives some ids to two
 * cases).
 */
final class ConformanceCases {

	/** Whole-text JSON, as Go's {@code json.Unmarshal} reads it (nothing may follow the value). */
	static final JsonMapper JSON = JsonMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	private ConformanceCases() {
	}

	/** The cases of levels {@code 0..maxLevel} below a folder. */
	static List<ConformanceCase> load(Path suites, int maxLevel) {
		try (Stream<Path> files = Files.walk(suites)) {
			return files.filter((file) -> file.toString().endsWith(".json") && Files.isRegularFile(file))
				.map(ConformanceCases::read)
				.filter((testCase) -> testCase.level() <= maxLevel)
				.sorted(Comparator.comparing(ConformanceCase::id).thenComparing(ConformanceCase::name))
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static ConformanceCase read(Path file) {
		JsonNode root = JSON.readTree(file.toFile());
		JsonNode level = root.path("level");
		return new ConformanceCase(root.path("test_id").asString(""),
				level.isString() ? Integer.parseInt(level.stringValue()) : level.asInt(0),
				root.path("category").asString(""), root.path("name").asString(""), file,
				steps(root.path("setup").path("steps")), steps(root.path("steps")),
				steps(root.path("teardown").path("steps")));
	}

	private static List<Step> steps(JsonNode steps) {
		List<Step> list = new ArrayList<>();
		steps.values().forEach((step) -> list.add(step(step)));
		return list;
	}

	private static Step step(JsonNode step) {
		Map<String, String> headers = new LinkedHashMap<>();
		step.path("headers").properties().forEach((entry) -> headers.put(entry.getKey(), entry.getValue().asString()));
		JsonNode body = step.get("body");
		JsonNode assertions = step.get("assertions");
		return new Step(step.path("id").asString(""), step.path("action").asString(""),
				step.path("path").asString(""), headers, (body != null) ? JSON.writeValueAsString(body) : null,
				text(step.get("raw_body")), step.path("delay_ms").asInt(0), step.path("duration_ms").asInt(0),
				text(step.get("parallel_with")),
				(assertions != null && !assertions.isNull()) ? assertions(assertions) : null);
	}

	private static Assertions assertions(JsonNode node) {
		Map<String, String> body = new LinkedHashMap<>();
		node.path("body").properties().forEach((entry) -> body.put(entry.getKey(), JSON.writeValueAsString(entry.getValue())));
		List<Integer> statusIn = new ArrayList<>();
		node.path("status_in").values().forEach((status) -> statusIn.add(status.asInt()));
		JsonNode timing = node.get("timing_ms");
		return new Assertions(present(node.get("status")), statusIn, body, texts(node.path("body_absent")),
				texts(node.path("body_contains")), present(node.get("headers")),
				(timing != null) ? new Timing(integer(timing.get("less_than")), integer(timing.get("greater_than")),
						integer(timing.get("approximate"))) : null);
	}

	private static List<String> texts(JsonNode array) {
		List<String> texts = new ArrayList<>();
		array.values().forEach((text) -> texts.add(text.asString()));
		return texts;
	}

	private static @Nullable JsonNode present(@Nullable JsonNode node) {
		return (node != null && !node.isNull()) ? node : null;
	}

	private static @Nullable String text(@Nullable JsonNode node) {
		return (node != null && node.isString()) ? node.stringValue() : null;
	}

	private static @Nullable Integer integer(@Nullable JsonNode node) {
		return (node != null && node.isNumber()) ? node.asInt() : null;
	}

}

package dev.ojs.bench.chaos;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.bench.chaos.BadInputGenerator.BadInput;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

class BadInputGeneratorTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void everyInputIsAJsonObjectWithItsBadFieldPresent() {
		List<BadInput> inputs = new BadInputGenerator(42).generate(2_000);
		assertThat(inputs).hasSize(2_000);
		Set<String> kinds = new HashSet<>();
		for (BadInput input : inputs) {
			Map<String, Object> fields = JSON.readValue(input.json(), new TypeReference<Map<String, Object>>() {
			});
			assertThat(fields.keySet()).as(input.json()).containsAnyElementsOf(input.fields());
			kinds.addAll(input.fields());
		}
		assertThat(kinds).contains("max_attempts", "initial_interval", "max_interval", "backoff_coefficient", "jitter",
				"non_retryable_errors", "on_exhaustion", "backoff_strategy");
		assertThat(new BadInputGenerator(42).generate(50)).isEqualTo(inputs.subList(0, 50));
	}

	@Test
	void generatedDurationsAreRejectedByTheParserAndFailTheSpecPattern() {
		BadInputGenerator generator = new BadInputGenerator(7);
		java.util.Random random = new java.util.Random(7);
		for (int i = 0; i < 1_000; i++) {
			String duration = generator.malformedDuration(random);
			// the production parser agrees that each one is invalid (RET-19)
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.as(duration)
				.isThrownBy(() -> dev.ojs.retry.IsoDurations.parse(duration));
		}
		// the generator's filter is the spec's §14 pattern, character for character
		assertThat(BadInputGenerator.ISO_DURATION.pattern())
			.isEqualTo("^P(?!$)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$");
		assertThat("PT0.5S").matches(BadInputGenerator.ISO_DURATION);
		assertThat("P1DT2H").matches(BadInputGenerator.ISO_DURATION);
	}

	@Test
	void retryPolicyParseRejectsEveryInputNamingTheField() {
		List<BadInput> inputs = new BadInputGenerator(1).generate(10_000);
		BadInputCheck.Tally tally = BadInputCheck.run("RetryPolicy.parse", inputs, RetryPolicy::parse);
		assertThat(tally.check().failed()).as(tally.check().toString()).isFalse();
		assertThat(tally.rejected()).isEqualTo(10_000);
	}

	@Test
	void tallyTellsOutcomesApart() {
		List<BadInput> inputs = List.of(new BadInput("{\"jitter\":1}", Set.of("jitter")),
				new BadInput("{\"max_attempts\":-1}", Set.of("max_attempts")),
				new BadInput("{\"max_attempts\":-2}", Set.of("max_attempts")));
		BadInputCheck.Tally tally = BadInputCheck.run("fake", inputs, (json) -> {
			if (json.contains("jitter")) {
				return;
			}
			if (json.contains("-1")) {
				throw new dev.ojs.retry.RetryPolicyValidationException("max_attempts", -1, "something is wrong");
			}
			throw new IllegalStateException("boom");
		});
		assertThat(tally.accepted()).isEqualTo(1);
		assertThat(tally.fieldNotNamed()).isEqualTo(1);
		assertThat(tally.otherExceptions()).isEqualTo(1);
		assertThat(tally.check().failed()).isTrue();
		assertThat(tally.examples()).hasSize(3);
	}

}

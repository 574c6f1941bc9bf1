package dev.ojs.retry;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON form, defaults and merging: spec §2.1, §8, §8.1 (RET-09, RET-10) and the §12
 * effective policies and delay schedules.
 */
class RetryPolicyJsonTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String SPEC_DEFAULT = SpecExamples.DEFAULT;

	@Test
	void defaultPolicyIsTheSpecDefault() {
		// §8, plus our backoff_strategy extension field
		assertThat(tree(RetryPolicy.DEFAULT.toJson())).isEqualTo(withStrategy(SPEC_DEFAULT, "exponential"));
		assertThat(RetryPolicy.parse("{}")).isEqualTo(RetryPolicy.DEFAULT);
		assertThat(RetryPolicy.parse(SPEC_DEFAULT)).isEqualTo(RetryPolicy.DEFAULT);
		assertThat(RetryPolicy.DEFAULT.isComplete()).isTrue();
		assertThat(RetryPolicy.DEFAULT.effective()).isSameAs(RetryPolicy.DEFAULT);
	}

	@Test
	void partialOverrideExample() {
		// §8.1
		RetryPolicy effective = RetryPolicy.parse("""
				{
				  "max_attempts": 10,
				  "on_exhaustion": "dead_letter"
				}""");
		assertThat(tree(effective.toJson())).isEqualTo(withStrategy("""
				{
				  "max_attempts": 10,
				  "initial_interval": "PT1S",
				  "backoff_coefficient": 2.0,
				  "max_interval": "PT5M",
				  "jitter": true,
				  "non_retryable_errors": [],
				  "on_exhaustion": "dead_letter"
				}""", "exponential"));
	}

	@ParameterizedTest(name = "{0}", quoteTextArguments = false)
	@MethodSource("examples")
	void specExamples(String name, String retry, String effectiveJson, String strategy, List<Duration> definition) {
		RetryPolicy effective = RetryPolicy.parse(retry);
		assertThat(tree(effective.toJson())).isEqualTo(withStrategy(effectiveJson, strategy));
		for (int retryNumber = 1; retryNumber <= definition.size(); retryNumber++) {
			assertThat(effective.delayBeforeRetry(retryNumber)).as("retry %d", retryNumber)
				.isEqualTo(definition.get(retryNumber - 1));
		}
		// the last attempt allowed by max_attempts is never retried (§2.2)
		assertThat(effective.decide(effective.maxAttempts(), JobError.of("any.error", "x"), new SplittableRandom())
			.isRetry()).isFalse();
	}

	static Stream<Arguments> examples() {
		String exampleOne = """
				{"max_attempts": 1, "initial_interval": "PT1S", "backoff_coefficient": 2.0, "max_interval": "PT5M",
				 "jitter": true, "non_retryable_errors": [], "on_exhaustion": "discard"}""";
		String aggressive = SpecExamples.AGGRESSIVE;
		String crm = SpecExamples.CUSTOM_NON_RETRYABLE;
		String polling = SpecExamples.POLLING;
		String deadLetter = """
				{"max_attempts": 1, "initial_interval": "PT1S", "backoff_coefficient": 2.0, "max_interval": "PT5M",
				 "jitter": true, "non_retryable_errors": [], "on_exhaustion": "dead_letter"}""";
		return Stream.of(
				Arguments.of("§12.1 no retry", """
						{"max_attempts": 1}""", exampleOne, "exponential", seconds()),
				Arguments.of("§12.2 default policy: 1s, 2s", "{}", SPEC_DEFAULT, "exponential", seconds(1, 2)),
				// the spec infers polynomial from the example; we need the backoff_strategy extension field
				Arguments.of("§12.3 aggressive polynomial: 15s, 240s, 1215s, 3600s (capped), 3600s (capped)",
						withStrategy(aggressive, "polynomial").toString(), aggressive, "polynomial",
						seconds(15, 240, 1215, 3600, 3600)),
				Arguments.of("§12.4 custom non-retryable errors: 30s, 60s, 120s, 240s", crm, crm, "exponential",
						seconds(30, 60, 120, 240)),
				Arguments.of("§12.5 constant polling: 10s each", polling, polling, "exponential",
						seconds(10, 10, 10, 10, 10, 10, 10, 10, 10, 10)),
				Arguments.of("§12.6 no retry, direct to dead letter", """
						{"max_attempts": 1, "on_exhaustion": "dead_letter"}""", deadLetter, "exponential", seconds()));
	}

	@Test
	void pollingRetryWindowIsAboutTenMinutes() {
		RetryPolicy policy = RetryPolicy.parse(SpecExamples.POLLING);
		Duration total = Duration.ZERO;
		for (int retry = 1; retry < policy.maxAttempts(); retry++) {
			total = total.plus(policy.delayBeforeRetry(retry, new SplittableRandom()));
		}
		assertThat(total).isEqualTo(Duration.ofSeconds(590));
	}

	@Test
	void partialPolicyWritesOnlyItsFields() {
		RetryPolicy partial = RetryPolicy.parsePartial("""
				{"max_attempts": 10, "on_exhaustion": "dead_letter"}""");
		assertThat(partial.isComplete()).isFalse();
		assertThat(partial.initialInterval()).isNull();
		assertThat(tree(partial.toJson())).isEqualTo(tree("""
				{"max_attempts": 10, "on_exhaustion": "dead_letter"}"""));
		assertThat(RetryPolicy.builder().build().toJson()).isEqualTo("{}");
		assertThat(RetryPolicy.parsePartial(partial.toJson())).isEqualTo(partial);
	}

	@Test
	void toJsonRoundTrips() {
		RetryPolicy policy = RetryPolicy.parse("""
				{"max_attempts": 7, "initial_interval": "PT0.25S", "backoff_coefficient": 1.5,
				 "max_interval": "PT1H30M", "jitter": false, "non_retryable_errors": ["a.b", "c.*"],
				 "on_exhaustion": "dead_letter", "backoff_strategy": "polynomial"}""");
		assertThat(RetryPolicy.parse(policy.toJson())).isEqualTo(policy);
		assertThat(RetryPolicy.parsePartial(policy.toJson())).isEqualTo(policy);
		assertThat(policy.toJson()).contains("\"initial_interval\":\"PT0.25S\"", "\"max_interval\":\"PT1H30M\"",
				"\"backoff_strategy\":\"polynomial\"");
	}

	@Test
	void toJsonOmittingDefaultsWritesOnlyTheFieldsThatDiffer() {
		assertThat(RetryPolicy.DEFAULT.toJsonOmittingDefaults()).isEqualTo("{}");
		assertThat(RetryPolicy.parse("{\"max_attempts\": 3, \"jitter\": true}").toJsonOmittingDefaults()).isEqualTo("{}");
		RetryPolicy policy = RetryPolicy.parse("""
				{"max_attempts": 3, "initial_interval": "PT0.001S", "jitter": false, "non_retryable_errors": ["a.b"],
				 "backoff_strategy": "linear"}""");
		assertThat(tree(policy.toJsonOmittingDefaults())).isEqualTo(tree("""
				{"initial_interval": "PT0.001S", "jitter": false, "non_retryable_errors": ["a.b"],
				 "backoff_strategy": "linear"}"""));
		assertThat(RetryPolicy.parse(policy.toJsonOmittingDefaults())).isEqualTo(policy);
		// a max_interval below the default initial_interval is written with its own initial_interval
		RetryPolicy capped = RetryPolicy.parse("{\"initial_interval\": \"PT0.1S\", \"max_interval\": \"PT0.5S\"}");
		assertThat(RetryPolicy.parse(capped.toJsonOmittingDefaults())).isEqualTo(capped);
	}

	@Test
	void toJsonOmittingDefaultsRoundTripsPoliciesMixingDefaultAndOtherValues() {
		SplittableRandom random = new SplittableRandom(2027);
		RetryPolicy d = RetryPolicy.DEFAULT;
		for (int i = 0; i < 2_000; i++) {
			Duration initial = random.nextBoolean() ? d.initialInterval() : Duration.ofMillis(random.nextLong(1, 600_000));
			Duration max = random.nextBoolean() && d.maxInterval().compareTo(initial) >= 0 ? d.maxInterval()
					: initial.plusMillis(random.nextLong(0, 3_600_000));
			RetryPolicy policy = RetryPolicy.builder()
				.maxAttempts(random.nextBoolean() ? d.maxAttempts() : random.nextInt(0, 100))
				.initialInterval(initial)
				.backoffCoefficient(random.nextBoolean() ? d.backoffCoefficient() : 1.0 + random.nextInt(0, 10))
				.maxInterval(max)
				.jitter(random.nextBoolean())
				.nonRetryableErrors(random.nextBoolean() ? d.nonRetryableErrors() : List.of("e" + random.nextInt()))
				.onExhaustion(OnExhaustion.values()[random.nextInt(2)])
				.backoffStrategy(BackoffStrategy.values()[random.nextInt(4)])
				.build();
			assertThat(RetryPolicy.parse(policy.toJsonOmittingDefaults())).as(policy.toJson()).isEqualTo(policy);
		}
	}

	@Test
	void toJsonRoundTripsRandomPolicies() {
		SplittableRandom random = new SplittableRandom(2026);
		for (int i = 0; i < 2_000; i++) {
			Duration initial = Duration.ofNanos(random.nextLong(1, Long.MAX_VALUE));
			RetryPolicy policy = RetryPolicy.builder()
				.maxAttempts(random.nextInt(0, Integer.MAX_VALUE))
				.initialInterval(initial)
				.backoffCoefficient(1.0 + random.nextDouble() * random.nextInt(1, 1_000_000))
				.maxInterval(initial.plusNanos(random.nextLong(0, Long.MAX_VALUE)))
				.jitter(random.nextBoolean())
				.nonRetryableErrors("e" + random.nextInt(), "x.*")
				.onExhaustion(OnExhaustion.values()[random.nextInt(2)])
				.backoffStrategy(BackoffStrategy.values()[random.nextInt(4)])
				.build();
			assertThat(RetryPolicy.parse(policy.toJson())).isEqualTo(policy);
			assertThat(RetryPolicy.parse(policy.toJsonOmittingDefaults())).isEqualTo(policy);
		}
	}

	@Test
	void backoffStrategyExtensionIsAcceptedForEveryValue() {
		for (BackoffStrategy strategy : BackoffStrategy.values()) {
			RetryPolicy policy = RetryPolicy.parse("{\"backoff_strategy\": \"" + strategy.value() + "\"}");
			assertThat(policy.backoffStrategy()).isEqualTo(strategy);
		}
	}

	@Test
	void integralFloatingPointIsAnInteger() {
		// JSON Schema "integer" accepts a number with a zero fractional part
		assertThat(RetryPolicy.parse("{\"max_attempts\": 5.0}").maxAttempts()).isEqualTo(5);
		assertThat(RetryPolicy.parse("{\"backoff_coefficient\": 3}").backoffCoefficient()).isEqualTo(3.0);
	}

	@Test
	void mergedOverLayersPartialPolicies() {
		RetryPolicy appDefaults = RetryPolicy.builder()
			.maxAttempts(5)
			.initialInterval(Duration.ofSeconds(2))
			.onExhaustion(OnExhaustion.DEAD_LETTER)
			.build();
		RetryPolicy handler = RetryPolicy.builder().maxAttempts(10).nonRetryableErrors("auth.*").build();
		RetryPolicy job = RetryPolicy.builder().nonRetryableErrors(List.of()).jitter(false).build();
		RetryPolicy layered = job.mergedOver(handler.mergedOver(appDefaults));
		assertThat(layered.isComplete()).isFalse();
		assertThat(tree(layered.toJson())).isEqualTo(tree("""
				{"max_attempts": 10, "initial_interval": "PT2S", "jitter": false, "non_retryable_errors": [],
				 "on_exhaustion": "dead_letter"}"""));
		RetryPolicy effective = layered.effective();
		assertThat(effective).isEqualTo(RetryPolicy.parse(layered.toJson()));
		assertThat(effective.backoffCoefficient()).isEqualTo(2.0);
		assertThat(effective.maxInterval()).isEqualTo(Duration.ofMinutes(5));
		// an unset field never hides the base; a set one always wins
		assertThat(RetryPolicy.builder().build().mergedOver(appDefaults)).isEqualTo(appDefaults);
		assertThat(appDefaults.mergedOver(RetryPolicy.builder().build())).isEqualTo(appDefaults);
		assertThat(RetryPolicy.DEFAULT.mergedOver(appDefaults)).isEqualTo(RetryPolicy.DEFAULT);
	}

	@Test
	void valueSemantics() {
		RetryPolicy a = RetryPolicy.parse("{\"non_retryable_errors\": [\"a.*\"]}");
		RetryPolicy b = RetryPolicy.builder().nonRetryableErrors("a.*").build().effective();
		assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
		assertThat(a.toString()).contains("\"non_retryable_errors\":[\"a.*\"]");
		assertThat(a.nonRetryableErrors()).isUnmodifiable();
	}

	private static JsonNode tree(String json) {
		return JSON.readTree(json);
	}

	private static JsonNode withStrategy(String json, String strategy) {
		ObjectNode node = (ObjectNode) tree(json);
		node.put("backoff_strategy", strategy);
		return node;
	}

	private static List<Duration> seconds(long... values) {
		return java.util.Arrays.stream(values).mapToObj(Duration::ofSeconds).toList();
	}

}

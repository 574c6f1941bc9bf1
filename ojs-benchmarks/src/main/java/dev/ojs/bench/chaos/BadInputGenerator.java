package dev.ojs.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Generates malformed partial retry policies: each has exactly one invalid field (a wrong
 * JSON type, a value out of range, a duration that is not ISO 8601, an unknown field name,
 * or {@code initial_interval} beyond {@code max_interval}) among up to three valid ones, so
 * the rejection must name that field.
 */
public final class BadInputGenerator {

	/** The spec's duration pattern (§14), anchored: a string that does not match is invalid (RET-19). */
	static final Pattern ISO_DURATION = Pattern
		.compile("^P(?!$)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$");

	private static final String[] DURATION_FRAGMENTS = { "P", "T", "PT", "1", "5", "30", "0", ".", ".5", "1.5",
			"S", "M", "H", "D", "Y", "W", "-", "+", " ", ",", "x", "ms", "sec", "1e3", "PT1S", "P1D" };

	private static final String[] WRONG_TYPES = { "true", "false", "[]", "{}", "[1]", "{\"a\":1}" };

	private static final String[] UNKNOWN_FIELDS = { "max_attempt", "maxAttempts", "initialInterval", "retries",
			"backoff", "jitter_factor", "max_intervals", "on_exhaust", "timeout" };

	private final Random random;

	public BadInputGenerator(long seed) {
		this.random = new Random(seed);
	}

	/**
	 * One malformed policy.
	 *
	 * @param json the partial policy JSON object
	 * @param fields the rejection message must name one of these
	 */
	public record BadInput(String json, Set<String> fields) {

	}

	/** {@code count} malformed policies, cycling through every kind of mistake. */
	public List<BadInput> generate(int count) {
		List<Function<Random, Invalid>> kinds = List.of(this::badMaxAttempts, (r) -> badDuration("initial_interval"),
				(r) -> badDuration("max_interval"), this::badCoefficient, this::badJitter, this::badNonRetryable,
				this::badOnExhaustion, this::badStrategy, this::unknownField, this::intervalBeyondMax);
		List<BadInput> inputs = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			Invalid invalid = kinds.get(i % kinds.size()).apply(this.random);
			inputs.add(new BadInput(withValidFields(invalid), invalid.fields()));
		}
		return inputs;
	}

	private record Invalid(String json, Set<String> fields, Set<String> taken) {

		Invalid(String field, String value) {
			this("\"" + field + "\":" + value, Set.of(field), Set.of(field));
		}

	}

	private Invalid badMaxAttempts(Random r) {
		return new Invalid("max_attempts", pick(r, () -> String.valueOf(-1 - r.nextInt(1000)),
				() -> (r.nextInt(20)) + ".5", () -> "\"" + r.nextInt(10) + "\"", () -> "\"many\"", () -> wrongType(r)));
	}

	private Invalid badDuration(String field) {
		Random r = this.random;
		return new Invalid(field, pick(r, () -> jsonString(malformedDuration(r)), () -> jsonString(malformedDuration(r)),
				() -> jsonString(malformedDuration(r)), () -> String.valueOf(r.nextInt(10_000)),
				() -> String.valueOf(r.nextDouble()), () -> wrongType(r)));
	}

	private Invalid badCoefficient(Random r) {
		return new Invalid("backoff_coefficient",
				pick(r, () -> String.format(Locale.ROOT, "%.3f", r.nextDouble() * 0.999),
						() -> String.valueOf(-r.nextInt(100)), () -> "\"2.0\"", () -> "\"fast\"", () -> wrongType(r)));
	}

	private Invalid badJitter(Random r) {
		return new Invalid("jitter", pick(r, () -> "\"true\"", () -> "\"yes\"", () -> "1", () -> "0", () -> "[]",
				() -> "{}", () -> "\"false\""));
	}

	private Invalid badNonRetryable(Random r) {
		return new Invalid("non_retryable_errors", pick(r, () -> "\"auth.*\"", () -> "5", () -> "true", () -> "{}",
				() -> "[1]", () -> "[\"\"]", () -> "[true]", () -> "[[]]", () -> "[{}]", () -> "[\"a.b\", 2]"));
	}

	private Invalid badOnExhaustion(Random r) {
		return new Invalid("on_exhaustion", pick(r, () -> "\"explode\"", () -> "\"\"", () -> "\"dead-letter\"",
				() -> "\"deadletter\"", () -> "\"discarded\"", () -> "\"retry\"", () -> "1", () -> wrongType(r)));
	}

	private Invalid badStrategy(Random r) {
		return new Invalid("backoff_strategy",
				pick(r, () -> "\"quadratic\"", () -> "\"\"", () -> "\"exp\"", () -> "\"fibonacci\"", () -> "2",
						() -> wrongType(r)));
	}

	private Invalid unknownField(Random r) {
		String field = UNKNOWN_FIELDS[r.nextInt(UNKNOWN_FIELDS.length)];
		return new Invalid(field, pick(r, () -> "3", () -> "\"PT1S\"", () -> "true"));
	}

	/** Valid fields whose combination is invalid: initial_interval beyond max_interval. */
	private Invalid intervalBeyondMax(Random r) {
		Set<String> both = Set.of("initial_interval", "max_interval");
		if (r.nextBoolean()) {
			// beyond the default max_interval (PT5M) once merged over the defaults
			return new Invalid("\"initial_interval\":\"PT" + (6 + r.nextInt(100)) + "M\"", both, both);
		}
		int max = 1 + r.nextInt(60);
		return new Invalid("\"initial_interval\":\"PT" + (max + 1 + r.nextInt(60)) + "S\",\"max_interval\":\"PT"
				+ max + "S\"", both, both);
	}

	/** A random string from duration-like fragments that the spec's pattern rejects. */
	String malformedDuration(Random r) {
		while (true) {
			StringBuilder text = new StringBuilder();
			int parts = r.nextInt(5);
			for (int i = 0; i < parts; i++) {
				text.append(DURATION_FRAGMENTS[r.nextInt(DURATION_FRAGMENTS.length)]);
			}
			if (!ISO_DURATION.matcher(text).matches()) {
				return text.toString();
			}
		}
	}

	private String withValidFields(Invalid invalid) {
		List<String> fields = new ArrayList<>();
		List<String> valid = new ArrayList<>(List.of("\"max_attempts\":" + this.random.nextInt(10),
				"\"backoff_coefficient\":" + (1 + this.random.nextInt(4)) + ".0",
				"\"jitter\":" + this.random.nextBoolean(), "\"non_retryable_errors\":[\"validation.*\"]",
				"\"on_exhaustion\":\"dead_letter\"", "\"initial_interval\":\"PT0." + (1 + this.random.nextInt(9)) + "S\"",
				"\"max_interval\":\"PT" + (5 + this.random.nextInt(55)) + "M\""));
		valid.removeIf((field) -> invalid.taken().stream().anyMatch((name) -> field.startsWith("\"" + name + "\"")));
		int extra = this.random.nextInt(4);
		for (int i = 0; i < extra && !valid.isEmpty(); i++) {
			fields.add(valid.remove(this.random.nextInt(valid.size())));
		}
		fields.add(this.random.nextInt(fields.size() + 1), invalid.json());
		return "{" + String.join(",", fields) + "}";
	}

	@SafeVarargs
	private static String pick(Random r, java.util.function.Supplier<String>... choices) {
		return choices[r.nextInt(choices.length)].get();
	}

	private static String wrongType(Random r) {
		return WRONG_TYPES[r.nextInt(WRONG_TYPES.length)];
	}

	private static String jsonString(String value) {
		return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

}

package dev.ojs.retry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes {@link RetryPolicy} in the spec's snake_case JSON (§2.1), enforcing the
 * JSON types of the §14 schema: no unknown properties (except the {@code backoff_strategy}
 * extension), no {@code null} values, integers for {@code max_attempts}, ISO 8601 strings
 * for intervals, booleans for {@code jitter}, arrays of strings for
 * {@code non_retryable_errors}, the enum values for {@code on_exhaustion}. Value rules are
 * left to {@link RetryPolicyValidation}.
 */
final class RetryPolicyJson {

	static final String MAX_ATTEMPTS = "max_attempts";

	static final String INITIAL_INTERVAL = "initial_interval";

	static final String BACKOFF_COEFFICIENT = "backoff_coefficient";

	static final String MAX_INTERVAL = "max_interval";

	static final String JITTER = "jitter";

	static final String NON_RETRYABLE_ERRORS = "non_retryable_errors";

	static final String ON_EXHAUSTION = "on_exhaustion";

	static final String BACKOFF_STRATEGY = "backoff_strategy";

	/** The field name used when the policy as a whole is unreadable. */
	static final String RETRY_POLICY = "retry_policy";

	private static final List<String> FIELDS = List.of(MAX_ATTEMPTS, INITIAL_INTERVAL, BACKOFF_COEFFICIENT,
			MAX_INTERVAL, JITTER, NON_RETRYABLE_ERRORS, ON_EXHAUSTION, BACKOFF_STRATEGY);

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private RetryPolicyJson() {
	}

	static RetryPolicy read(String json) {
		JsonNode root = readTree(json);
		RetryPolicy.Builder builder = RetryPolicy.builder();
		for (Map.Entry<String, JsonNode> property : root.properties()) {
			JsonNode value = property.getValue();
			switch (property.getKey()) {
				case MAX_ATTEMPTS -> builder.maxAttempts(maxAttempts(value));
				case INITIAL_INTERVAL -> builder.initialInterval(duration(INITIAL_INTERVAL, value));
				case BACKOFF_COEFFICIENT -> builder.backoffCoefficient(coefficient(value));
				case MAX_INTERVAL -> builder.maxInterval(duration(MAX_INTERVAL, value));
				case JITTER -> builder.jitter(jitter(value));
				case NON_RETRYABLE_ERRORS -> builder.nonRetryableErrors(nonRetryableErrors(value));
				case ON_EXHAUSTION -> builder.onExhaustion(enumValue(ON_EXHAUSTION, value, OnExhaustion.class));
				case BACKOFF_STRATEGY ->
					builder.backoffStrategy(enumValue(BACKOFF_STRATEGY, value, BackoffStrategy.class));
				default -> throw new RetryPolicyValidationException(property.getKey(), javaValue(value),
						"unknown retry policy field \"" + property.getKey() + "\"; allowed: "
								+ String.join(", ", FIELDS));
			}
		}
		return builder.build();
	}

	/** The JSON names of the fields set in {@code policy}, in the spec's order. */
	static Set<String> fieldNames(RetryPolicy policy) {
		Set<String> names = new LinkedHashSet<>();
		addIfSet(names, MAX_ATTEMPTS, policy.maxAttempts());
		addIfSet(names, INITIAL_INTERVAL, policy.initialInterval());
		addIfSet(names, BACKOFF_COEFFICIENT, policy.backoffCoefficient());
		addIfSet(names, MAX_INTERVAL, policy.maxInterval());
		addIfSet(names, JITTER, policy.jitter());
		addIfSet(names, NON_RETRYABLE_ERRORS, policy.nonRetryableErrors());
		addIfSet(names, ON_EXHAUSTION, policy.onExhaustion());
		addIfSet(names, BACKOFF_STRATEGY, policy.backoffStrategy());
		return names;
	}

	private static void addIfSet(Set<String> names, String name, @Nullable Object value) {
		if (value != null) {
			names.add(name);
		}
	}

	static String write(RetryPolicy policy) {
		ObjectNode node = MAPPER.createObjectNode();
		if (policy.maxAttempts() != null) {
			node.put(MAX_ATTEMPTS, policy.maxAttempts());
		}
		if (policy.initialInterval() != null) {
			node.put(INITIAL_INTERVAL, IsoDurations.format(policy.initialInterval()));
		}
		if (policy.backoffCoefficient() != null) {
			node.put(BACKOFF_COEFFICIENT, policy.backoffCoefficient());
		}
		if (policy.maxInterval() != null) {
			node.put(MAX_INTERVAL, IsoDurations.format(policy.maxInterval()));
		}
		if (policy.jitter() != null) {
			node.put(JITTER, policy.jitter());
		}
		if (policy.nonRetryableErrors() != null) {
			ArrayNode errors = node.putArray(NON_RETRYABLE_ERRORS);
			policy.nonRetryableErrors().forEach(errors::add);
		}
		if (policy.onExhaustion() != null) {
			node.put(ON_EXHAUSTION, policy.onExhaustion().value());
		}
		if (policy.backoffStrategy() != null) {
			node.put(BACKOFF_STRATEGY, policy.backoffStrategy().value());
		}
		return MAPPER.writeValueAsString(node);
	}

	private static JsonNode readTree(String json) {
		if (json == null || json.isBlank()) {
			throw new RetryPolicyValidationException(RETRY_POLICY, json, "retry_policy must be a JSON object, got "
					+ ((json == null) ? "null" : "an empty string"));
		}
		JsonNode root;
		try {
			root = MAPPER.readTree(json);
		}
		catch (JacksonException ex) {
			throw new RetryPolicyValidationException(RETRY_POLICY, json,
					"retry_policy is not valid JSON: " + ex.getOriginalMessage());
		}
		if (root == null || !root.isObject()) {
			throw new RetryPolicyValidationException(RETRY_POLICY, json,
					"retry_policy must be a JSON object, got " + json.strip());
		}
		return root;
	}

	private static Integer maxAttempts(JsonNode value) {
		// §14 "type": "integer", "minimum": 0 (an integral value such as 3.0 counts as an integer)
		BigInteger integer = integerValue(value);
		if (integer == null || integer.signum() < 0) {
			throw typeError(MAX_ATTEMPTS, value, "must be a non-negative integer");
		}
		if (integer.bitLength() >= Integer.SIZE) {
			throw typeError(MAX_ATTEMPTS, value, "must be an integer no larger than " + Integer.MAX_VALUE);
		}
		return integer.intValue();
	}

	private static @Nullable BigInteger integerValue(JsonNode value) {
		if (value.isIntegralNumber()) {
			return value.bigIntegerValue();
		}
		if (value.isFloatingPointNumber() && Double.isFinite(value.doubleValue())) {
			BigDecimal decimal = value.decimalValue().stripTrailingZeros();
			return (decimal.scale() <= 0) ? decimal.toBigIntegerExact() : null;
		}
		return null;
	}

	private static Duration duration(String field, JsonNode value) {
		// §14 "type": "string" with the ISO 8601 duration pattern (§4, RET-19)
		if (!value.isString()) {
			throw typeError(field, value, "must be an ISO 8601 duration string such as \"PT1S\"");
		}
		try {
			return IsoDurations.parse(value.stringValue());
		}
		catch (IllegalArgumentException ex) {
			throw typeError(field, value, "must be an ISO 8601 duration such as \"PT1S\" (" + ex.getMessage() + ")");
		}
	}

	private static Double coefficient(JsonNode value) {
		// §14 "type": "number"; the >= 1.0 rule is RetryPolicyValidation's
		if (!value.isNumber()) {
			throw typeError(BACKOFF_COEFFICIENT, value, "must be a number");
		}
		return value.doubleValue();
	}

	private static Boolean jitter(JsonNode value) {
		// §11.1 jitter MUST be a boolean
		if (!value.isBoolean()) {
			throw typeError(JITTER, value, "must be a boolean (true or false)");
		}
		return value.booleanValue();
	}

	private static List<String> nonRetryableErrors(JsonNode value) {
		// §11.1 non_retryable_errors MUST be an array of strings (§14 items minLength 1)
		if (!value.isArray()) {
			throw typeError(NON_RETRYABLE_ERRORS, value, "must be an array of strings");
		}
		List<String> entries = new ArrayList<>();
		for (JsonNode entry : value.values()) {
			if (!entry.isString()) {
				throw typeError(NON_RETRYABLE_ERRORS, entry, "entries must be non-empty strings");
			}
			entries.add(entry.stringValue());
		}
		return entries;
	}

	private static <E extends Enum<E>> E enumValue(String field, JsonNode value, Class<E> type) {
		List<String> allowed = new ArrayList<>();
		for (E constant : type.getEnumConstants()) {
			String name = constant.name().toLowerCase(Locale.ROOT);
			if (value.isString() && name.equals(value.stringValue())) {
				return constant;
			}
			allowed.add("\"" + name + "\"");
		}
		throw typeError(field, value, "must be one of " + String.join(", ", allowed));
	}

	private static RetryPolicyValidationException typeError(String field, JsonNode value, String rule) {
		return RetryPolicyValidation.invalid(field, javaValue(value), rule);
	}

	private static @Nullable Object javaValue(JsonNode value) {
		return MAPPER.treeToValue(value, Object.class);
	}

}

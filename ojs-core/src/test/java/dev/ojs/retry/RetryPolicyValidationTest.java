package dev.ojs.retry;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Validation, spec §11.1 and the §14 schema (RET-03, RET-16, RET-19, RET-20): every
 * failure is a {@link RetryPolicyValidationException} with error type
 * {@code validation.retry_policy_invalid} naming the field.
 */
class RetryPolicyValidationTest {

	@ParameterizedTest(name = "§11.1 {0}: {1} is rejected", quoteTextArguments = false)
	@CsvSource(delimiter = '|', textBlock = """
			max_attempts MUST be a non-negative integer   | {"max_attempts": -1}               | max_attempts
			initial_interval MUST be a valid ISO 8601 duration | {"initial_interval": "1S"}         | initial_interval
			initial_interval MUST be greater than zero    | {"initial_interval": "PT0S"}       | initial_interval
			backoff_coefficient MUST be >= 1.0            | {"backoff_coefficient": 0.5}       | backoff_coefficient
			max_interval MUST be a valid ISO 8601 duration | {"max_interval": "5 minutes"}      | max_interval
			max_interval MUST be >= initial_interval      | {"initial_interval": "PT10S", "max_interval": "PT5S"} | max_interval
			jitter MUST be a boolean                      | {"jitter": "yes"}                  | jitter
			non_retryable_errors MUST be an array of strings | {"non_retryable_errors": "auth.*"} | non_retryable_errors
			on_exhaustion MUST be "discard" or "dead_letter" | {"on_exhaustion": "retry"}         | on_exhaustion
			""")
	void oneFailingCasePerRule(String rule, String json, String field) {
		assertInvalid(json, field);
	}

	@ParameterizedTest(name = "§14 rejects {0}", quoteTextArguments = false)
	@CsvSource(delimiter = '|', textBlock = """
			{"max_attempts": 2.5}                           | max_attempts
			{"max_attempts": "3"}                           | max_attempts
			{"max_attempts": true}                          | max_attempts
			{"max_attempts": null}                          | max_attempts
			{"max_attempts": 2147483648}                    | max_attempts
			{"max_attempts": 99999999999999999999999999}    | max_attempts
			{"max_attempts": -99999999999999999999999999}   | max_attempts
			{"max_attempts": 1e400}                         | max_attempts
			{"initial_interval": 1}                         | initial_interval
			{"initial_interval": null}                      | initial_interval
			{"initial_interval": "P"}                       | initial_interval
			{"initial_interval": "PT"}                      | initial_interval
			{"initial_interval": "PT-1S"}                   | initial_interval
			{"initial_interval": "PT1.S"}                   | initial_interval
			{"initial_interval": "pt1s"}                    | initial_interval
			{"initial_interval": ""}                        | initial_interval
			{"initial_interval": " PT1S"}                   | initial_interval
			{"initial_interval": "PT99999999999999999999S"} | initial_interval
			{"backoff_coefficient": "2.0"}                  | backoff_coefficient
			{"backoff_coefficient": null}                   | backoff_coefficient
			{"backoff_coefficient": 0.999999}               | backoff_coefficient
			{"backoff_coefficient": 0}                      | backoff_coefficient
			{"backoff_coefficient": -2}                     | backoff_coefficient
			{"backoff_coefficient": 1e400}                  | backoff_coefficient
			{"max_interval": 300}                           | max_interval
			{"max_interval": "PT0S"}                        | max_interval
			{"max_interval": "PT0.5S"}                      | max_interval
			{"jitter": 1}                                   | jitter
			{"jitter": "true"}                              | jitter
			{"jitter": null}                                | jitter
			{"non_retryable_errors": [1]}                   | non_retryable_errors
			{"non_retryable_errors": [""]}                  | non_retryable_errors
			{"non_retryable_errors": [null]}                | non_retryable_errors
			{"non_retryable_errors": ["a", ["b"]]}          | non_retryable_errors
			{"non_retryable_errors": null}                  | non_retryable_errors
			{"non_retryable_errors": {}}                    | non_retryable_errors
			{"on_exhaustion": "DISCARD"}                    | on_exhaustion
			{"on_exhaustion": "dead-letter"}                | on_exhaustion
			{"on_exhaustion": null}                         | on_exhaustion
			{"on_exhaustion": 1}                            | on_exhaustion
			{"backoff_strategy": "fibonacci"}               | backoff_strategy
			{"backoff_strategy": "EXPONENTIAL"}             | backoff_strategy
			{"backoff_strategy": null}                      | backoff_strategy
			{"max_attempts": 3, "retries": 5}               | retries
			{"maxAttempts": 3}                              | maxAttempts
			""")
	void schemaTypesAndFormats(String json, String field) {
		assertInvalid(json, field);
	}

	@ParameterizedTest(name = "unreadable policy {0}", quoteTextArguments = false)
	@ValueSource(strings = { "", "  ", "{", "[]", "3", "\"PT1S\"", "null", "{\"a\":1,\"a\":2}", "{}{}",
			"{\"max_attempts\": 3,}", "{'max_attempts': 3}", "{\"max_attempts\": NaN}" })
	void malformedJson(String json) {
		assertInvalid(json, "retry_policy");
	}

	@Test
	void nullJsonIsInvalid() {
		assertInvalid(null, "retry_policy");
	}

	@Test
	void duplicateKnownFieldIsRejected() {
		assertInvalid("{\"max_attempts\": 3, \"max_attempts\": 4}", "retry_policy");
	}

	@Test
	void messagesAreActionable() {
		assertThat(invalid("{\"backoff_coefficient\": 0.5}"))
			.hasMessage("backoff_coefficient must be >= 1.0, got 0.5")
			.satisfies((ex) -> assertThat(ex.value()).isEqualTo(0.5));
		assertThat(invalid("{\"jitter\": \"yes\"}")).hasMessage("jitter must be a boolean (true or false), got \"yes\"")
			.satisfies((ex) -> assertThat(ex.value()).isEqualTo("yes"));
		assertThat(invalid("{\"max_attempts\": -1}")).hasMessage("max_attempts must be a non-negative integer, got -1");
		assertThat(invalid("{\"max_interval\": \"PT0.5S\"}"))
			.hasMessage("max_interval must be >= initial_interval (PT1S), got PT0.5S")
			.satisfies((ex) -> assertThat(ex.value()).isEqualTo(Duration.ofMillis(500)));
		assertThat(invalid("{\"initial_interval\": \"1S\"}")).hasMessageStartingWith(
				"initial_interval must be an ISO 8601 duration such as \"PT1S\"").hasMessageEndingWith("got \"1S\"");
		assertThat(invalid("{\"colour\": 1}")).hasMessageContaining("unknown retry policy field \"colour\"")
			.hasMessageContaining("max_attempts, initial_interval");
	}

	@Test
	void builderInputIsValidatedTheSameWay() {
		rejects(() -> RetryPolicy.builder().backoffCoefficient(0.5).build(), "backoff_coefficient")
			.withMessage("backoff_coefficient must be >= 1.0, got 0.5");
		rejects(() -> RetryPolicy.builder().backoffCoefficient(Double.NaN).build(), "backoff_coefficient");
		rejects(() -> RetryPolicy.builder().backoffCoefficient(Double.POSITIVE_INFINITY).build(),
				"backoff_coefficient");
		rejects(() -> RetryPolicy.builder().maxAttempts(-1).build(), "max_attempts");
		rejects(() -> RetryPolicy.builder().initialInterval(Duration.ZERO).build(), "initial_interval");
		rejects(() -> RetryPolicy.builder().initialInterval(Duration.ofSeconds(-1)).build(), "initial_interval")
			.withMessage("initial_interval must be greater than zero, got PT-1S");
		rejects(() -> RetryPolicy.builder().maxInterval(Duration.ZERO).build(), "max_interval");
		rejects(() -> RetryPolicy.builder()
			.initialInterval(Duration.ofMinutes(1))
			.maxInterval(Duration.ofSeconds(59))
			.build(), "max_interval");
		rejects(() -> RetryPolicy.builder().nonRetryableErrors("a", "").build(), "non_retryable_errors");
		rejects(() -> RetryPolicy.builder().nonRetryableErrors(Arrays.asList("a", null)).build(),
				"non_retryable_errors");
	}

	@Test
	void intervalsAreCheckedOnTheMergedPolicy() {
		RetryPolicy partial = RetryPolicy.builder().maxInterval(Duration.ofMillis(500)).build();
		assertThatNoException().isThrownBy(partial::isComplete);
		rejects(partial::effective, "max_interval");
		RetryPolicy base = RetryPolicy.builder().initialInterval(Duration.ofSeconds(10)).build();
		rejects(() -> RetryPolicy.builder().maxInterval(Duration.ofSeconds(5)).build().mergedOver(base),
				"max_interval");
		rejects(() -> RetryPolicy.parsePartial("{\"initial_interval\": \"PT10M\"}").effective(),
				"max_interval");
	}

	@Test
	void boundaryValuesAreValid() {
		RetryPolicy policy = RetryPolicy.parse("""
				{"max_attempts": 0, "initial_interval": "PT0.000000001S", "backoff_coefficient": 1.0,
				 "max_interval": "PT0.000000001S", "non_retryable_errors": []}""");
		assertThat(policy.maxAttempts()).isZero();
		assertThat(RetryPolicy.parse("{\"max_attempts\": 2147483647}").maxAttempts()).isEqualTo(Integer.MAX_VALUE);
		assertThat(RetryPolicy.parse("{\"backoff_coefficient\": 1e9}").backoffCoefficient()).isEqualTo(1e9);
		assertThat(RetryPolicy.parse("{\"max_interval\": \"PT2562047788015215H30M7.999999999S\"}").maxInterval())
			.isEqualTo(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
		assertThat(RetryPolicy.parse("{\"non_retryable_errors\": [\"a\", \"a\"]}").nonRetryableErrors())
			.isEqualTo(List.of("a", "a"));
	}

	@Test
	void errorTypeIsTheSpecErrorType() {
		assertThat(invalid("{\"jitter\": 0}").errorType()).isEqualTo("validation.retry_policy_invalid");
		assertThat(RetryPolicyValidationException.ERROR_TYPE).isEqualTo("validation.retry_policy_invalid");
	}

	private static void assertInvalid(String json, String field) {
		rejects(() -> RetryPolicy.parse(json), field);
	}

	private static org.assertj.core.api.ThrowableAssertAlternative<RetryPolicyValidationException> rejects(
			org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
		return assertThatExceptionOfType(RetryPolicyValidationException.class).isThrownBy(call)
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo(field))
			.satisfies((ex) -> assertThat(ex.errorType()).isEqualTo("validation.retry_policy_invalid"));
	}

	private static RetryPolicyValidationException invalid(String json) {
		try {
			RetryPolicy.parse(json);
		}
		catch (RetryPolicyValidationException ex) {
			return ex;
		}
		throw new AssertionError("expected " + json + " to be rejected");
	}

}

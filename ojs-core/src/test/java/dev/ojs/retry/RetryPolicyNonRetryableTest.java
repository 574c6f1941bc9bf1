package dev.ojs.retry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Non-retryable error matching, spec §6.2 (RET-18) and §12.4.
 */
class RetryPolicyNonRetryableTest {

	@ParameterizedTest(quoteTextArguments = false,
			name = "§6.2 [validation.payload_invalid, auth.*]: {0} matches? {1} ({2})")
	@CsvSource(delimiter = '|', textBlock = """
			validation.payload_invalid | true  | Exact match
			validation.schema_error    | false | No match
			auth.token_expired         | true  | Prefix auth.*
			auth.forbidden             | true  | Prefix auth.*
			auth                       | false | auth does not start with auth.
			external.auth.failure      | false | Prefix is auth, not external.auth
			""")
	void matchingTable(String errorType, boolean matches, String rule) {
		RetryPolicy policy = RetryPolicy.builder().nonRetryableErrors("validation.payload_invalid", "auth.*").build();
		assertThat(policy.isNonRetryable(errorType)).as(rule).isEqualTo(matches);
	}

	@ParameterizedTest(name = "§12.4 {0} non-retryable? {1}", quoteTextArguments = false)
	@CsvSource({ "auth.invalid_credentials, true", "resource.not_found, true", "validation.anything, true",
			"external.crm.api_deprecated, true", "external.crm.service_unavailable, false",
			"external.crm.api_deprecated.v2, false", "resource.not_found_at_all, false" })
	void customNonRetryableErrors(String errorType, boolean matches) {
		RetryPolicy policy = RetryPolicy.parse(SpecExamples.CUSTOM_NON_RETRYABLE);
		assertThat(policy.isNonRetryable(errorType)).isEqualTo(matches);
	}

	@Test
	void prefixEntryMatchesNestedTypesButNotTheBareDomain() {
		RetryPolicy policy = RetryPolicy.builder().nonRetryableErrors("external.stripe.*").build();
		assertThat(policy.isNonRetryable("external.stripe.card_declined")).isTrue();
		assertThat(policy.isNonRetryable("external.stripe.a.b")).isTrue();
		assertThat(policy.isNonRetryable("external.stripe")).isFalse();
		assertThat(policy.isNonRetryable("external.stripes.x")).isFalse();
	}

	@Test
	void wildcardIsOnlyASuffix() {
		RetryPolicy policy = RetryPolicy.builder().nonRetryableErrors("*", "auth*", "a.*.b").build();
		assertThat(policy.isNonRetryable("auth.x")).isFalse();
		assertThat(policy.isNonRetryable("authx")).isFalse();
		assertThat(policy.isNonRetryable("a.x.b")).isFalse();
		assertThat(policy.isNonRetryable("*")).isTrue();
	}

	@Test
	void emptyOrUnsetListMatchesNothing() {
		assertThat(RetryPolicy.DEFAULT.isNonRetryable("validation.payload_invalid")).isFalse();
		assertThat(RetryPolicy.builder().build().isNonRetryable("auth.x")).isFalse();
		assertThat(RetryPolicy.DEFAULT.isNonRetryable(null)).isFalse();
	}

}

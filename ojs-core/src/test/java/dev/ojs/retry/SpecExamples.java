package dev.ojs.retry;

/**
 * Retry policies quoted verbatim from the spec, shared by the tests.
 */
final class SpecExamples {

	/** §8 default retry policy. */
	static final String DEFAULT = """
			{
			  "max_attempts": 3,
			  "initial_interval": "PT1S",
			  "backoff_coefficient": 2.0,
			  "max_interval": "PT5M",
			  "jitter": true,
			  "non_retryable_errors": [],
			  "on_exhaustion": "discard"
			}""";

	/** §12.3 aggressive retry with dead letter. */
	static final String AGGRESSIVE = """
			{
			  "max_attempts": 25,
			  "initial_interval": "PT15S",
			  "backoff_coefficient": 4.0,
			  "max_interval": "PT1H",
			  "jitter": true,
			  "non_retryable_errors": [
			    "payment.card_stolen",
			    "payment.card_expired",
			    "validation.*"
			  ],
			  "on_exhaustion": "dead_letter"
			}""";

	/** §12.4 custom non-retryable errors. */
	static final String CUSTOM_NON_RETRYABLE = """
			{
			  "max_attempts": 5,
			  "initial_interval": "PT30S",
			  "backoff_coefficient": 2.0,
			  "max_interval": "PT15M",
			  "jitter": true,
			  "non_retryable_errors": [
			    "auth.invalid_credentials",
			    "auth.account_suspended",
			    "resource.not_found",
			    "validation.*",
			    "external.crm.api_deprecated"
			  ],
			  "on_exhaustion": "dead_letter"
			}""";

	/** §12.5 constant backoff for polling. */
	static final String POLLING = """
			{
			  "max_attempts": 60,
			  "initial_interval": "PT10S",
			  "backoff_coefficient": 1.0,
			  "max_interval": "PT10S",
			  "jitter": false,
			  "non_retryable_errors": [],
			  "on_exhaustion": "dead_letter"
			}""";

	private SpecExamples() {
	}

}

package dev.ojs.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ojs.retry.RetryDecision.Action;
import dev.ojs.retry.RetryDecision.Rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link RetryPolicy#decide}: the §2.2 max_attempts table and the §7.2 precedence
 * (RET-01, RET-07, RET-08, RET-17).
 */
class RetryPolicyDecideTest {

	private static final String NON_RETRYABLE = "payment.card_stolen";

	private static final String RETRYABLE = "external.timeout";

	@ParameterizedTest(name = "§2.2 max_attempts {0}: {1} attempt(s), {2} retries", quoteTextArguments = false)
	@CsvSource({ "0, 1, 0", "1, 1, 0", "3, 3, 2", "25, 25, 24" })
	void maxAttemptsIsAnExactUpperBound(int maxAttempts, int attempts, int retries) {
		RetryPolicy policy = RetryPolicy.builder().maxAttempts(maxAttempts).build().effective();
		SplittableRandom random = new SplittableRandom(maxAttempts);
		int attempt = 1;
		List<RetryDecision> decisions = new ArrayList<>();
		RetryDecision decision;
		do {
			decision = policy.decide(attempt, JobError.of(RETRYABLE, "timed out"), random);
			decisions.add(decision);
			attempt++;
		}
		while (decision.isRetry());
		assertThat(decisions).hasSize(attempts);
		assertThat(decisions.stream().filter(RetryDecision::isRetry)).hasSize(retries);
		assertThat(decision).isEqualTo(RetryDecision.discard(Rule.EXHAUSTED));
	}

	@ParameterizedTest(quoteTextArguments = false,
			name = "§7.2 code {0}, exhausted={1}, non-retryable={2}, on_exhaustion={3} → {4} ({5})")
	@MethodSource("precedence")
	void precedence(ErrorCode code, boolean exhausted, boolean nonRetryable, OnExhaustion onExhaustion, Action action,
			Rule rule) {
		RetryPolicy policy = RetryPolicy.builder()
			.maxAttempts(3)
			.nonRetryableErrors(NON_RETRYABLE)
			.onExhaustion(onExhaustion)
			.build()
			.effective();
		int failedAttempt = exhausted ? 3 : 2;
		JobError error = new JobError(nonRetryable ? NON_RETRYABLE : RETRYABLE, "failed", code, null);
		RetryDecision decision = policy.decide(failedAttempt, error, new SplittableRandom(1));
		assertThat(decision.action()).isEqualTo(action);
		assertThat(decision.rule()).isEqualTo(rule);
		if (action == Action.RETRY) {
			// retry 2 of the default schedule: 2s, jittered into [1s, 3s)
			assertThat(decision.delay()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(3));
		}
		else {
			assertThat(decision.delay()).isNull();
		}
	}

	/** Every code × exhausted/not × non-retryable/not × both on_exhaustion values. */
	static Stream<Arguments> precedence() {
		List<Arguments> cases = new ArrayList<>();
		for (ErrorCode code : ErrorCode.values()) {
			for (boolean exhausted : new boolean[] { false, true }) {
				for (boolean nonRetryable : new boolean[] { false, true }) {
					for (OnExhaustion onExhaustion : OnExhaustion.values()) {
						Action terminal = (onExhaustion == OnExhaustion.DEAD_LETTER) ? Action.DEAD_LETTER
								: Action.DISCARD;
						Arguments expected = switch (code) {
							// §7.2 item 1, 4: regardless of max_attempts or on_exhaustion
							case DISCARD -> Arguments.of(code, exhausted, nonRetryable, onExhaustion, Action.DISCARD,
									Rule.HANDLER_DISCARD);
							case FAIL -> Arguments.of(code, exhausted, nonRetryable, onExhaustion, Action.DISCARD,
									Rule.HANDLER_FAIL);
							// §7.2 item 2
							case DEAD_LETTER -> Arguments.of(code, exhausted, nonRetryable, onExhaustion,
									Action.DEAD_LETTER, Rule.HANDLER_DEAD_LETTER);
							// §7.2 item 3: non_retryable_errors, then remaining attempts
							case RETRY -> {
								Rule rule = nonRetryable ? Rule.NON_RETRYABLE
										: exhausted ? Rule.EXHAUSTED : Rule.RETRY;
								Action action = (rule == Rule.RETRY) ? Action.RETRY : terminal;
								yield Arguments.of(code, exhausted, nonRetryable, onExhaustion, action, rule);
							}
						};
						cases.add(expected);
					}
				}
			}
		}
		assertThat(cases).hasSize(32);
		return cases.stream();
	}

	@ParameterizedTest(name = "{0}: attempt {2} fails with {3} → {4} ({5})", quoteTextArguments = false)
	@MethodSource("examples")
	void specExampleBehaviour(String example, String json, int failedAttempt, String errorType, Action action,
			Rule rule) {
		RetryDecision decision = RetryPolicy.parse(json)
			.decide(failedAttempt, JobError.of(errorType, "failed"), new SplittableRandom(failedAttempt));
		assertThat(decision.action()).isEqualTo(action);
		assertThat(decision.rule()).isEqualTo(rule);
	}

	static Stream<Arguments> examples() {
		String noRetry = "{\"max_attempts\": 1}";
		String directToDeadLetter = "{\"max_attempts\": 1, \"on_exhaustion\": \"dead_letter\"}";
		String aggressive = SpecExamples.AGGRESSIVE.replace("{", "{\"backoff_strategy\": \"polynomial\",");
		String crm = SpecExamples.CUSTOM_NON_RETRYABLE;
		return Stream.of(Arguments.of("§12.1", noRetry, 1, RETRYABLE, Action.DISCARD, Rule.EXHAUSTED),
				Arguments.of("§12.2", "{}", 2, RETRYABLE, Action.RETRY, Rule.RETRY),
				Arguments.of("§12.2", "{}", 3, RETRYABLE, Action.DISCARD, Rule.EXHAUSTED),
				Arguments.of("§12.3", aggressive, 1, "payment.card_stolen", Action.DEAD_LETTER, Rule.NON_RETRYABLE),
				Arguments.of("§12.3", aggressive, 1, "payment.card_expired", Action.DEAD_LETTER, Rule.NON_RETRYABLE),
				Arguments.of("§12.3", aggressive, 1, "validation.amount", Action.DEAD_LETTER, Rule.NON_RETRYABLE),
				Arguments.of("§12.3", aggressive, 24, RETRYABLE, Action.RETRY, Rule.RETRY),
				Arguments.of("§12.3", aggressive, 25, RETRYABLE, Action.DEAD_LETTER, Rule.EXHAUSTED),
				Arguments.of("§12.4", crm, 1, "auth.invalid_credentials", Action.DEAD_LETTER, Rule.NON_RETRYABLE),
				Arguments.of("§12.4", crm, 1, "resource.not_found", Action.DEAD_LETTER, Rule.NON_RETRYABLE),
				Arguments.of("§12.4", crm, 1, "external.crm.service_unavailable", Action.RETRY, Rule.RETRY),
				Arguments.of("§12.5", SpecExamples.POLLING, 59, RETRYABLE, Action.RETRY, Rule.RETRY),
				Arguments.of("§12.5", SpecExamples.POLLING, 60, RETRYABLE, Action.DEAD_LETTER, Rule.EXHAUSTED),
				Arguments.of("§12.6", directToDeadLetter, 1, RETRYABLE, Action.DEAD_LETTER, Rule.EXHAUSTED));
	}

	@Test
	void plainErrorDefaultsToRetry() {
		JobError error = new JobError("external.server_error", "boom", null, null);
		assertThat(error.code()).isEqualTo(ErrorCode.RETRY);
		assertThat(RetryPolicy.DEFAULT.decide(1, error, new SplittableRandom(1)).action()).isEqualTo(Action.RETRY);
	}

	@Test
	void retryDelayUsesFailedAttemptAsRetryNumber() {
		RetryPolicy policy = RetryPolicy.parse("""
				{"max_attempts": 10, "jitter": false}""");
		for (int failedAttempt = 1; failedAttempt < 10; failedAttempt++) {
			RetryDecision decision = policy.decide(failedAttempt, JobError.of(RETRYABLE, "x"), new SplittableRandom());
			assertThat(decision).isEqualTo(RetryDecision.retry(policy.delayBeforeRetry(failedAttempt)));
		}
	}

	@Test
	void attemptsBeyondMaxAttemptsAreExhausted() {
		RetryDecision decision = RetryPolicy.DEFAULT.decide(Integer.MAX_VALUE, JobError.of(RETRYABLE, "x"),
				new SplittableRandom(1));
		assertThat(decision).isEqualTo(RetryDecision.discard(Rule.EXHAUSTED));
	}

	@Test
	void decideRequiresACompletePolicyAndAPositiveAttempt() {
		JobError error = JobError.of(RETRYABLE, "x");
		assertThatIllegalStateException()
			.isThrownBy(() -> RetryPolicy.builder().maxAttempts(3).build().decide(1, error, new SplittableRandom()));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RetryPolicy.DEFAULT.decide(0, error, new SplittableRandom()));
	}

	@Test
	void handlerOverrideExample() {
		// §12.7
		RetryPolicy policy = RetryPolicy.DEFAULT;
		SplittableRandom random = new SplittableRandom(12);
		assertThat(policy.decide(1, new JobError("payment.card_declined", "declined", ErrorCode.DISCARD, null), random))
			.isEqualTo(RetryDecision.discard(Rule.HANDLER_DISCARD));
		assertThat(policy.decide(1, new JobError("payment.card_stolen", "stolen", ErrorCode.DEAD_LETTER, null), random))
			.isEqualTo(RetryDecision.deadLetter(Rule.HANDLER_DEAD_LETTER));
		assertThat(policy.decide(1, new JobError("external.timeout", "slow", ErrorCode.RETRY, null), random).action())
			.isEqualTo(Action.RETRY);
		assertThat(policy.decide(1, JobError.of("external.server_error", "500"), random).action())
			.isEqualTo(Action.RETRY);
	}

	@Test
	void retryDecisionInvariants() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryDecision(Action.RETRY, null, Rule.RETRY));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryDecision(Action.DISCARD, Duration.ZERO, Rule.EXHAUSTED));
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryDecision(Action.DISCARD, null, Rule.RETRY));
		assertThatIllegalArgumentException().isThrownBy(() -> RetryDecision.retry(Duration.ofSeconds(-1)));
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FailurePlanner}: where a failed attempt goes, with a fixed {@code now}. Handler
 * codes first (spec §7.2, RET-08), then {@code non_retryable_errors} (§6.3, RET-07/18), then
 * remaining attempts (§2.2, RET-01) and the backoff (§3, RET-04); both exhaustion outcomes
 * (RET-17); an override's delay capped at {@code max_interval} (RET-04); expired
 * reservations (§9.2, RET-12); and the error history (§10.1, RET-14/15).
 */
class FailurePlannerTests {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private static final String NODE = "node-1";

	private final FailurePlanner planner = new FailurePlanner(RetryDelayOverride.NONE, 20, TestPolicies.jobsOwn());

	// §7.2 item 3: a plain error (code RETRY) with attempts left is retried after the backoff

	@Test
	void retryIsDueAtNowPlusThePolicysDelayRet14() {
		Job job = job(policy(5, OnExhaustion.DISCARD), 1);
		JobError error = JobError.of("external.timeout", "slow");

		FailurePlanner.Plan plan = this.planner.plan(job, error, NOW);

		AttemptFailure failure = plan.attemptFailure();
		assertThat(failure.job()).isSameAs(job);
		assertThat(failure.state()).isEqualTo(JobState.RETRYABLE);
		assertThat(failure.deadLetter()).isFalse();
		assertThat(failure.failedAt()).isEqualTo(NOW);
		// exponential, jitter off: initial_interval before the first retry, exactly
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(10));
		assertThat(failure.nextRetryAt()).isEqualTo(NOW.plusSeconds(10));
		assertThat(plan.error()).isSameAs(error);
	}

	@Test
	void retryDelayFollowsTheBackoffOfTheFailedAttempt() {
		// attempt 3 failed: retry 3 waits initial_interval * 2^(3-1)
		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DISCARD), 3),
				JobError.of("external.timeout", "slow"), NOW);

		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(40));
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plusSeconds(40));
	}

	@Test
	void policyDelayIsCappedAtMaxIntervalRet04() {
		// 10s * 2^8 is far beyond max_interval PT5M
		FailurePlanner.Plan plan = this.planner.plan(job(policy(20, OnExhaustion.DISCARD), 9),
				JobError.of("external.timeout", "slow"), NOW);

		assertThat(plan.delay()).isEqualTo(Duration.ofMinutes(5));
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
	}

	@Test
	void jitteredDelayStaysWithinHalfToOneAndAHalfTimesTheDelayRet05() {
		RetryPolicy jittered = RetryPolicy.builder()
			.maxAttempts(5)
			.initialInterval(Duration.ofSeconds(10))
			.jitter(true)
			.build()
			.effective();
		List<Duration> delays = IntStream.range(0, 200)
			.mapToObj((i) -> this.planner.plan(job(jittered, 1), JobError.of("external.timeout", "slow"), NOW).delay())
			.toList();

		assertThat(delays).allSatisfy((delay) -> assertThat(delay).isBetween(Duration.ofSeconds(5),
				Duration.ofSeconds(15).minusNanos(1)));
		assertThat(delays.stream().distinct().count()).isGreaterThan(1);
	}

	// §7.2 items 1, 2 and 4: handler codes decide regardless of max_attempts and on_exhaustion (RET-08)

	@Test
	void discardCodeDiscardsWithAttemptsLeftEvenUnderDeadLetterExhaustionRet08() {
		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DEAD_LETTER), 1),
				error("payment.card_declined", ErrorCode.DISCARD), NOW);

		assertDiscarded(plan, false);
	}

	@Test
	void deadLetterCodeDeadLettersWithAttemptsLeftEvenUnderDiscardExhaustionRet08() {
		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DISCARD), 1),
				error("payment.card_stolen", ErrorCode.DEAD_LETTER), NOW);

		assertDiscarded(plan, true);
	}

	@Test
	void failCodeDiscardsWithAttemptsLeftEvenUnderDeadLetterExhaustionRet08() {
		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DEAD_LETTER), 1),
				error("payment.invalid_account", ErrorCode.FAIL), NOW);

		assertDiscarded(plan, false);
	}

	@Test
	void explicitRetryCodeStillHonoursNonRetryableErrorsRet07() {
		// §7.2 item 3: RETRY means "the normal policy applies", which checks non_retryable_errors first
		FailurePlanner.Plan plan = this.planner.plan(
				job(policy(5, OnExhaustion.DISCARD, "validation.payload_invalid"), 1),
				error("validation.payload_invalid", ErrorCode.RETRY), NOW);

		assertDiscarded(plan, false);
	}

	// §6.3: a non_retryable_errors match goes straight to on_exhaustion (RET-07, RET-17, RET-18)

	@Test
	void exactNonRetryableMatchDiscardsUnderDiscardExhaustionRet18() {
		FailurePlanner.Plan plan = this.planner.plan(
				job(policy(5, OnExhaustion.DISCARD, "validation.payload_invalid", "auth.*"), 1),
				JobError.of("validation.payload_invalid", "bad"), NOW);

		assertDiscarded(plan, false);
	}

	@Test
	void exactNonRetryableMatchDeadLettersUnderDeadLetterExhaustionRet17() {
		FailurePlanner.Plan plan = this.planner.plan(
				job(policy(5, OnExhaustion.DEAD_LETTER, "validation.payload_invalid", "auth.*"), 1),
				JobError.of("validation.payload_invalid", "bad"), NOW);

		assertDiscarded(plan, true);
	}

	@Test
	void prefixNonRetryableMatchFollowsOnExhaustionRet07() {
		RetryPolicy discard = policy(5, OnExhaustion.DISCARD, "auth.*");
		RetryPolicy deadLetter = policy(5, OnExhaustion.DEAD_LETTER, "auth.*");

		assertDiscarded(this.planner.plan(job(discard, 1), JobError.of("auth.token_expired", "expired"), NOW), false);
		assertDiscarded(this.planner.plan(job(deadLetter, 1), JobError.of("auth.token_expired", "expired"), NOW),
				true);
	}

	@Test
	void typesThatDoNotMatchNonRetryableErrorsAreRetried() {
		RetryPolicy policy = policy(5, OnExhaustion.DEAD_LETTER, "validation.payload_invalid", "auth.*");

		// §6.2 table: no match for a sibling type, the bare prefix, or the prefix further in
		for (String type : List.of("validation.schema_error", "auth", "external.auth.failure")) {
			FailurePlanner.Plan plan = this.planner.plan(job(policy, 1), JobError.of(type, "x"), NOW);
			assertThat(plan.attemptFailure().state()).as(type).isEqualTo(JobState.RETRYABLE);
		}
	}

	// §2.2: max_attempts is an exact upper bound on total attempts (RET-01)

	@Test
	void lastAllowedAttemptIsNotRetriedRet01() {
		RetryPolicy policy = policy(3, OnExhaustion.DISCARD);

		assertThat(this.planner.plan(job(policy, 2), JobError.of("external.timeout", "slow"), NOW).attemptFailure()
			.state()).isEqualTo(JobState.RETRYABLE);
		assertDiscarded(this.planner.plan(job(policy, 3), JobError.of("external.timeout", "slow"), NOW), false);
	}

	@Test
	void exhaustedAttemptsDeadLetterUnderDeadLetterExhaustionRet17() {
		assertDiscarded(this.planner.plan(job(policy(3, OnExhaustion.DEAD_LETTER), 3),
				JobError.of("external.timeout", "slow"), NOW), true);
	}

	@Test
	void maxAttemptsZeroAndOneAllowNoRetryRet01() {
		for (int maxAttempts : new int[] { 0, 1 }) {
			assertDiscarded(this.planner.plan(job(policy(maxAttempts, OnExhaustion.DISCARD), 1),
					JobError.of("external.timeout", "slow"), NOW), false);
			assertDiscarded(this.planner.plan(job(policy(maxAttempts, OnExhaustion.DEAD_LETTER), 1),
					JobError.of("external.timeout", "slow"), NOW), true);
		}
	}

	// RetryDelayOverride: replaces the policy's delay, capped at max_interval (RET-04, RET-06)

	@Test
	void overrideDelayReplacesThePolicysDelay() {
		List<Object> seen = new ArrayList<>();
		FailurePlanner planner = new FailurePlanner((job, error) -> {
			seen.add(job);
			seen.add(error);
			return Optional.of(Duration.ofSeconds(3));
		}, 20, TestPolicies.jobsOwn());
		Job job = job(policy(5, OnExhaustion.DISCARD), 1);
		JobError error = JobError.of("rate_limit.exceeded", "429");

		FailurePlanner.Plan plan = planner.plan(job, error, NOW);

		assertThat(seen).containsExactly(job, error);
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(3));
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plusSeconds(3));
	}

	@Test
	void overrideDelayIsCappedAtMaxIntervalRet04() {
		FailurePlanner planner = new FailurePlanner((job, error) -> Optional.of(Duration.ofHours(1)), 20, TestPolicies.jobsOwn());

		FailurePlanner.Plan plan = planner.plan(job(policy(5, OnExhaustion.DISCARD), 1),
				JobError.of("rate_limit.exceeded", "429"), NOW);

		assertThat(plan.delay()).isEqualTo(Duration.ofMinutes(5));
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
	}

	@Test
	void negativeOverrideDelayMeansRetryNow() {
		FailurePlanner planner = new FailurePlanner((job, error) -> Optional.of(Duration.ofSeconds(-5)), 20, TestPolicies.jobsOwn());

		FailurePlanner.Plan plan = planner.plan(job(policy(5, OnExhaustion.DISCARD), 1),
				JobError.of("rate_limit.exceeded", "429"), NOW);

		assertThat(plan.delay()).isZero();
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW);
	}

	@Test
	void emptyOrFailingOverrideFallsBackToThePolicysDelay() {
		FailurePlanner empty = new FailurePlanner(RetryDelayOverride.NONE, 20, TestPolicies.jobsOwn());
		FailurePlanner throwing = new FailurePlanner((job, error) -> {
			throw new IllegalStateException("override bug");
		}, 20, TestPolicies.jobsOwn());

		for (FailurePlanner planner : List.of(empty, throwing)) {
			FailurePlanner.Plan plan = planner.plan(job(policy(5, OnExhaustion.DISCARD), 2),
					JobError.of("external.timeout", "slow"), NOW);
			assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(20));
			assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plusSeconds(20));
		}
	}

	@Test
	void overrideIsNotConsultedWhenTheJobIsNotRetried() {
		AtomicInteger calls = new AtomicInteger();
		FailurePlanner planner = new FailurePlanner((job, error) -> {
			calls.incrementAndGet();
			return Optional.of(Duration.ofSeconds(1));
		}, 20, TestPolicies.jobsOwn());

		assertDiscarded(planner.plan(job(policy(1, OnExhaustion.DISCARD), 1), JobError.of("x.y", "z"), NOW), false);
		assertDiscarded(planner.plan(job(policy(5, OnExhaustion.DISCARD), 1), error("x.y", ErrorCode.DISCARD), NOW),
				false);

		assertThat(calls).hasValue(0);
	}

	@Test
	void retryTimePastTheLatestStorableInstantSaturates() {
		Instant now = Timestamps.MAX.minusSeconds(4);

		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DISCARD), 1),
				JobError.of("external.timeout", "slow"), now);

		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(Timestamps.MAX);
		// the delay up to MAX, not the policy's 10s
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(4));
	}

	// §9.2: an expired reservation is a failed attempt (RET-12)

	@Test
	void timeoutIsAFailureOfTypeVisibilityTimeoutRetriedPerPolicyRet12() {
		Job job = job(policy(3, OnExhaustion.DISCARD), 1);

		FailurePlanner.Plan plan = this.planner.planTimeout(job, NOW);

		assertThat(plan.error().type()).isEqualTo(FailurePlanner.VISIBILITY_TIMEOUT).isEqualTo("visibility_timeout");
		assertThat(plan.error().code()).isEqualTo(ErrorCode.RETRY);
		assertThat(plan.error().message()).contains(NODE);
		assertThat(plan.attemptFailure().state()).isEqualTo(JobState.RETRYABLE);
		// a stalled attempt: never before its reservation ends (NOW + 25 s), docs/retries.md
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(25));
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plusSeconds(25));
		ErrorEntry entry = plan.attemptFailure().errors().get(0);
		assertThat(entry.type()).isEqualTo("visibility_timeout");
		assertThat(entry.attempt()).isEqualTo(1);
		assertThat(entry.timestamp()).isEqualTo(NOW);
	}

	@Test
	void timeoutIgnoresNonRetryableErrors() {
		// §9.2 step 2: timeouts are always retryable unless max_attempts is exceeded
		RetryPolicy policy = policy(3, OnExhaustion.DEAD_LETTER, "visibility_timeout");

		FailurePlanner.Plan plan = this.planner.planTimeout(job(policy, 1), NOW);

		assertThat(plan.attemptFailure().state()).isEqualTo(JobState.RETRYABLE);
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(25));
	}

	// a stalled attempt's backoff counts from its start, never before its reservation ends (decision 1)

	@Test
	void expiredReservationIsRetriedAtTheLaterOfItsEndAndStartPlusBackoffRet12() {
		// L1-VIS-001's shape: claimed at NOW - 4 s with a 3 s reservation; backoff 10 s from the claim
		Instant claimed = NOW.minusSeconds(4);
		FailurePlanner.Plan plan = this.planner.planTimeout(stalled(claimed, claimed.plusSeconds(3), null), NOW);

		assertThat(plan.error().type()).isEqualTo("visibility_timeout");
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(claimed.plusSeconds(10));
		assertThat(plan.delay()).isEqualTo(Duration.ofSeconds(6));
	}

	@Test
	void expiredReservationWithAShortBackoffIsDueAtOnce() {
		// backoff 10 s, a reservation of 30 s found expired 1 s late: due at its end, in the past
		Instant claimed = NOW.minusSeconds(31);
		FailurePlanner.Plan plan = this.planner.planTimeout(stalled(claimed, claimed.plusSeconds(30), null), NOW);

		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(claimed.plusSeconds(30));
		assertThat(plan.delay()).isEqualTo(Duration.ZERO);
		assertThat(plan.attemptFailure().state()).isEqualTo(JobState.RETRYABLE);
	}

	@Test
	void reservationEndingAtTheExecutionTimeoutIsAFailureOfTypeTimeout() {
		// L1-TMO-001's shape: timeout 2 s caps the reservation
		Instant claimed = NOW.minusSeconds(3);
		FailurePlanner.Plan plan = this.planner.planTimeout(
				stalled(claimed, claimed.plusSeconds(2), Duration.ofSeconds(2)), NOW);

		assertThat(plan.error().type()).isEqualTo(FailurePlanner.TIMEOUT).isEqualTo("timeout");
		assertThat(plan.attemptFailure().state()).isEqualTo(JobState.RETRYABLE);
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(claimed.plusSeconds(10));
	}

	@Test
	void reservationEndingBeforeTheExecutionTimeoutIsAVisibilityTimeout() {
		Instant claimed = NOW.minusSeconds(3);
		FailurePlanner.Plan plan = this.planner.planTimeout(
				stalled(claimed, claimed.plusSeconds(2), Duration.ofMinutes(1)), NOW);

		assertThat(plan.error().type()).isEqualTo("visibility_timeout");
	}

	@Test
	void interruptedAttemptIsAnExplicitTimeoutFailureIgnoringNonRetryableErrors() {
		Job job = job(policy(3, OnExhaustion.DISCARD, "timeout"), 1);
		JobError error = FailurePlanner.executionTimeout(job, Duration.ofMillis(500));

		FailurePlanner.Plan plan = this.planner.planTimedOut(job, error, NOW);

		assertThat(plan.error().type()).isEqualTo("timeout");
		assertThat(plan.attemptFailure().state()).isEqualTo(JobState.RETRYABLE);
		// an explicit failure: backoff from now
		assertThat(plan.attemptFailure().nextRetryAt()).isEqualTo(NOW.plusSeconds(10));
	}

	/** Attempt 1, claimed at {@code claimed}, reserved until {@code lockedUntil}, with its own {@code timeout}. */
	private static Job stalled(Instant claimed, Instant lockedUntil, Duration timeout) {
		RetryPolicy policy = policy(3, OnExhaustion.DISCARD);
		Instant created = NOW.minus(Duration.ofHours(1));
		return new Job("0190f5f0-0000-7000-8000-000000000042", "test.job", "default", "[]", "{}", 0, JobState.ACTIVE,
				1, policy.maxAttempts(), policy, List.of(), false, null, created, created, created, claimed, null, null,
				NODE, lockedUntil, null, timeout, null);
	}

	@Test
	void timeoutOfTheLastAttemptFollowsOnExhaustion() {
		assertDiscarded(this.planner.planTimeout(job(policy(3, OnExhaustion.DISCARD, "visibility_timeout"), 3), NOW),
				false);
		assertDiscarded(this.planner.planTimeout(job(policy(3, OnExhaustion.DEAD_LETTER), 3), NOW), true);
		assertDiscarded(this.planner.planTimeout(job(policy(0, OnExhaustion.DEAD_LETTER), 1), NOW), true);
	}

	// §10.1: the error history keeps the newest errorHistoryLimit entries, the new error last (RET-14, RET-15)

	@Test
	void newErrorIsAppendedToTheHistoryRet14() {
		List<ErrorEntry> previous = history(2);
		Map<String, Object> details = Map.of("endpoint", "https://api.example.com");
		JobError error = new JobError("external.timeout", "slow", ErrorCode.RETRY, details);

		FailurePlanner.Plan plan = this.planner.plan(job(policy(5, OnExhaustion.DISCARD), 3, previous), error, NOW);

		List<ErrorEntry> errors = plan.attemptFailure().errors();
		assertThat(errors).hasSize(3);
		assertThat(errors.subList(0, 2)).isEqualTo(previous);
		assertThat(errors.get(2))
			.isEqualTo(new ErrorEntry(3, "external.timeout", "slow", ErrorCode.RETRY, NOW, details));
	}

	@Test
	void historyKeepsTheNewestEntriesUpToTheLimitRet15() {
		FailurePlanner planner = new FailurePlanner(RetryDelayOverride.NONE, 10, TestPolicies.jobsOwn());
		List<ErrorEntry> previous = history(25);

		FailurePlanner.Plan plan = planner.plan(job(policy(30, OnExhaustion.DISCARD), 26, previous),
				JobError.of("external.timeout", "slow"), NOW);

		List<ErrorEntry> errors = plan.attemptFailure().errors();
		assertThat(errors).hasSize(10);
		// the 9 newest of the 25, oldest first, then the new error
		assertThat(errors.subList(0, 9)).isEqualTo(previous.subList(16, 25));
		assertThat(errors.get(9).attempt()).isEqualTo(26);
		assertThat(errors.get(9).type()).isEqualTo("external.timeout");
	}

	@Test
	void historyAtTheLimitDropsOnlyTheOldestEntryRet15() {
		FailurePlanner planner = new FailurePlanner(RetryDelayOverride.NONE, 10, TestPolicies.jobsOwn());
		List<ErrorEntry> previous = history(10);

		List<ErrorEntry> errors = planner
			.plan(job(policy(30, OnExhaustion.DISCARD), 11, previous), JobError.of("external.timeout", "slow"), NOW)
			.attemptFailure()
			.errors();

		assertThat(errors).hasSize(10);
		assertThat(errors.subList(0, 9)).isEqualTo(previous.subList(1, 10));
		assertThat(errors.get(9).attempt()).isEqualTo(11);
	}

	@Test
	void terminalOutcomesRecordTheErrorTooRet14() {
		// §6.3 item 3: a non-retryable error is recorded in the history as well
		List<ErrorEntry> errors = this.planner
			.plan(job(policy(5, OnExhaustion.DEAD_LETTER, "auth.*"), 2, history(1)),
					JobError.of("auth.forbidden", "no"), NOW)
			.attemptFailure()
			.errors();

		assertThat(errors).extracting(ErrorEntry::type).containsExactly("error.1", "auth.forbidden");
	}

	private static void assertDiscarded(FailurePlanner.Plan plan, boolean deadLetter) {
		AttemptFailure failure = plan.attemptFailure();
		assertThat(failure.state()).isEqualTo(JobState.DISCARDED);
		assertThat(failure.deadLetter()).isEqualTo(deadLetter);
		assertThat(failure.nextRetryAt()).isNull();
		assertThat(failure.discardedAt()).isEqualTo(failure.failedAt());
		assertThat(plan.delay()).isNull();
	}

	private static JobError error(String type, ErrorCode code) {
		return new JobError(type, "handler said " + code, code, Map.of());
	}

	/** Exponential from 10s doubling, capped at 5 minutes, no jitter. */
	private static RetryPolicy policy(int maxAttempts, OnExhaustion onExhaustion, String... nonRetryableErrors) {
		return RetryPolicy.builder()
			.maxAttempts(maxAttempts)
			.initialInterval(Duration.ofSeconds(10))
			.backoffCoefficient(2.0)
			.maxInterval(Duration.ofMinutes(5))
			.jitter(false)
			.nonRetryableErrors(nonRetryableErrors)
			.onExhaustion(onExhaustion)
			.build()
			.effective();
	}

	private static Job job(RetryPolicy policy, int attempt) {
		return job(policy, attempt, List.of());
	}

	/** The job as claimed by {@link #NODE} for its {@code attempt}. */
	private static Job job(RetryPolicy policy, int attempt, List<ErrorEntry> errors) {
		Instant created = NOW.minus(Duration.ofHours(1));
		return new Job("0190f5f0-0000-7000-8000-000000000042", "test.job", "default", "[]", "{}", 0, JobState.ACTIVE,
				attempt, policy.maxAttempts(), policy, errors, false, null, created, created, created,
				NOW.minusSeconds(5), null, null, NODE, NOW.plusSeconds(25));
	}

	/** Errors of attempts 1 to {@code count}, of types {@code error.1}, {@code error.2}, .... */
	private static List<ErrorEntry> history(int count) {
		return IntStream.rangeClosed(1, count)
			.mapToObj((attempt) -> new ErrorEntry(attempt, "error." + attempt, "failed " + attempt, ErrorCode.RETRY,
					NOW.minus(Duration.ofMinutes(count - attempt + 1)), Map.of()))
			.toList();
	}

}

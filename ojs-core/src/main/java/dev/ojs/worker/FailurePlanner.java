package dev.ojs.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.ojs.job.AttemptFailure;
import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;
import dev.ojs.job.LazyErrorHistory;
import dev.ojs.job.Timestamps;
import dev.ojs.retry.JobError;
import dev.ojs.retry.OnExhaustion;
import dev.ojs.retry.RetryDecision;
import dev.ojs.retry.RetryPolicy;
import dev.ojs.retry.StalledAttempts;

/**
 * Decides where a failed attempt goes (spec §7.2), the same way for handler failures,
 * expired reservations (§9.2) and shutdown: {@link RetryPolicy#decide} on the policy the job
 * runs with ({@link RetryPolicies}),
 * a {@link RetryDelayOverride} capped at {@code max_interval} (RET-04), and the error
 * appended to the history, which keeps the newest {@code errorHistoryLimit} (§10.1, RET-15).
 */
final class FailurePlanner {

	/** Error type of an attempt whose reservation expired (spec §9.2). */
	static final String VISIBILITY_TIMEOUT = "visibility_timeout";

	/** Error type of an attempt that ran past its execution timeout (ojs-timeouts.md §3.1). */
	static final String TIMEOUT = "timeout";

	/** Error type of an attempt still running when its node shut down. */
	static final String SHUTDOWN = "shutdown";

	private static final Log logger = LogFactory.getLog(FailurePlanner.class);

	/** Merged over a job's policy for a timeout: only attempts and backoff apply (§9.2). */
	private static final RetryPolicy NO_NON_RETRYABLE_ERRORS = RetryPolicy.builder().nonRetryableErrors(List.of()).build();

	private final RetryDelayOverride delayOverride;

	private final int errorHistoryLimit;

	private final RetryPolicies policies;

	FailurePlanner(RetryDelayOverride delayOverride, int errorHistoryLimit, RetryPolicies policies) {
		this.delayOverride = delayOverride;
		this.errorHistoryLimit = errorHistoryLimit;
		this.policies = policies;
	}

	/**
	 * A failed attempt and the decision behind it.
	 *
	 * @param attemptFailure what to write
	 * @param error the error
	 * @param delay the retry delay, or {@code null} when not retrying; a retry time past
	 * {@link Timestamps#MAX} is stored as {@code MAX}, and this is the delay up to it
	 */
	record Plan(AttemptFailure attemptFailure, JobError error, @Nullable Duration delay) {

		Job job() {
			return this.attemptFailure.job();
		}

	}

	Plan plan(Job job, JobError error, Instant now) {
		return plan(job, error, now, this.policies.of(job));
	}

	/**
	 * An expired reservation (spec §9.2): a failed attempt that is retryable unless attempts
	 * are exhausted — {@code non_retryable_errors} does not apply to timeouts. Of type
	 * {@value #TIMEOUT} when the reservation ended at the attempt's execution timeout
	 * ({@link Job#deadline()}), else {@value #VISIBILITY_TIMEOUT}. The attempt stalled, so
	 * its retry is due at {@link StalledAttempts#nextAttemptAt}: the backoff counts from
	 * its start, and never before its reservation ended.
	 */
	Plan planTimeout(Job job, Instant now) {
		RetryPolicy policy = NO_NON_RETRYABLE_ERRORS.mergedOver(this.policies.of(job));
		Instant deadline = job.deadline();
		Instant reservationEnd = (job.lockedUntil() != null) ? job.lockedUntil() : now;
		JobError error = (deadline != null && !reservationEnd.isBefore(deadline))
				? JobError.of(TIMEOUT, "Attempt " + job.attempt() + " ran past its timeout of " + job.timeout()
						+ " at " + deadline)
				: JobError.of(VISIBILITY_TIMEOUT,
						"Reservation held by " + job.lockedBy() + " expired at " + job.lockedUntil());
		Instant attemptStart = (job.startedAt() != null) ? job.startedAt() : reservationEnd;
		return plan(job, error, now, policy, policy.decide(job.attempt(), error, ThreadLocalRandom.current()),
				(delay) -> StalledAttempts.nextAttemptAt(attemptStart, reservationEnd, delay));
	}

	/**
	 * An attempt of a handler in this process interrupted at its execution timeout
	 * ({@link #executionTimeout}): a failure whose moment is known, so its backoff counts from
	 * now as for any handler failure; retryable unless attempts are exhausted.
	 */
	Plan planTimedOut(Job job, JobError error, Instant now) {
		RetryPolicy policy = NO_NON_RETRYABLE_ERRORS.mergedOver(this.policies.of(job));
		return plan(job, error, now, policy);
	}

	/** The error of an attempt that ran {@code ran} and past its execution timeout. */
	static JobError executionTimeout(Job job, Duration ran) {
		return JobError.of(TIMEOUT, "Attempt " + job.attempt() + " ran past its execution timeout (interrupted after "
				+ ran.toMillis() + " ms)");
	}

	/**
	 * A failure the worker reported as not retryable (HTTP {@code retryable: false} without a
	 * handler code): like an error listed in {@code non_retryable_errors} (spec §6.3), no
	 * retry, and the policy's {@code on_exhaustion} applies.
	 */
	Plan planNonRetryable(Job job, JobError error, Instant now) {
		RetryPolicy policy = this.policies.of(job);
		RetryDecision decision = (policy.onExhaustion() == OnExhaustion.DEAD_LETTER)
				? RetryDecision.deadLetter(RetryDecision.Rule.NON_RETRYABLE)
				: RetryDecision.discard(RetryDecision.Rule.NON_RETRYABLE);
		return plan(job, error, now, policy, decision);
	}

	private Plan plan(Job job, JobError error, Instant now, RetryPolicy policy) {
		return plan(job, error, now, policy, policy.decide(job.attempt(), error, ThreadLocalRandom.current()));
	}

	private Plan plan(Job job, JobError error, Instant now, RetryPolicy policy, RetryDecision decision) {
		// spec §10 next_retry_at = now + delay
		return plan(job, error, now, policy, decision, (delay) -> Timestamps.plus(now, delay));
	}

	private Plan plan(Job job, JobError error, Instant now, RetryPolicy policy, RetryDecision decision,
			Function<Duration, Instant> retryAt) {
		List<ErrorEntry> errors = history(job, error, now);
		return switch (decision.action()) {
			case RETRY -> {
				Duration delay = overriddenDelay(job, error, policy).orElse(decision.delay());
				// saturating at the latest storable instant
				Instant nextRetryAt = retryAt.apply(delay);
				if (nextRetryAt.isAfter(Timestamps.MAX)) {
					nextRetryAt = Timestamps.MAX;
				}
				Duration wait = Duration.between(now, nextRetryAt);
				yield new Plan(new AttemptFailure(job, JobState.RETRYABLE, nextRetryAt, errors, false, now), error,
						wait.isNegative() ? Duration.ZERO : wait);
			}
			case DISCARD -> new Plan(new AttemptFailure(job, JobState.DISCARDED, null, errors, false, now), error, null);
			case DEAD_LETTER -> new Plan(new AttemptFailure(job, JobState.DISCARDED, null, errors, true, now), error,
					null);
		};
	}

	private Optional<Duration> overriddenDelay(Job job, JobError error, RetryPolicy policy) {
		try {
			return this.delayOverride.delay(job, error).map(policy::capDelay);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.warn("Retry delay override failed for job " + job.id() + ", using the policy's delay", ex);
			return Optional.empty();
		}
	}

	/**
	 * Spec §10.1: the history plus this error, keeping the newest {@code errorHistoryLimit};
	 * the history before it is read only if something reads the new one.
	 */
	private List<ErrorEntry> history(Job job, JobError error, Instant now) {
		return LazyErrorHistory.appended(job.errors(),
				new ErrorEntry(job.attempt(), error.type(), error.message(), error.code(), now, error.details()),
				this.errorHistoryLimit);
	}

}

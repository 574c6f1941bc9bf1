package dev.ojs.retry;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of applying a retry policy to a failed attempt (spec §7.2).
 *
 * @param action what to do with the job
 * @param delay the backoff before the next attempt; non-null only for {@link Action#RETRY}
 * @param rule which rule of the precedence decided
 */
public record RetryDecision(Action action, @Nullable Duration delay, Rule rule) {

	public RetryDecision {
		Objects.requireNonNull(action, "action must not be null");
		Objects.requireNonNull(rule, "rule must not be null");
		if ((action == Action.RETRY) != (delay != null)) {
			throw new IllegalArgumentException("delay must be set exactly when the action is RETRY");
		}
		if ((action == Action.RETRY) != (rule == Rule.RETRY)) {
			throw new IllegalArgumentException("rule RETRY goes with action RETRY only");
		}
		if (delay != null && delay.isNegative()) {
			throw new IllegalArgumentException("delay must not be negative");
		}
	}

	/** Retry after {@code delay} (rule {@link Rule#RETRY}). */
	public static RetryDecision retry(Duration delay) {
		return new RetryDecision(Action.RETRY, delay, Rule.RETRY);
	}

	/** Discard the job because of {@code rule}. */
	public static RetryDecision discard(Rule rule) {
		return new RetryDecision(Action.DISCARD, null, rule);
	}

	/** Move the job to the dead letter queue because of {@code rule}. */
	public static RetryDecision deadLetter(Rule rule) {
		return new RetryDecision(Action.DEAD_LETTER, null, rule);
	}

	/** Whether the job will be attempted again. */
	public boolean isRetry() {
		return this.action == Action.RETRY;
	}

	/**
	 * What happens to the job.
	 */
	public enum Action {

		/** Schedule another attempt after {@link RetryDecision#delay()}. */
		RETRY,
		/** Terminal: discarded (spec {@code on_exhaustion: "discard"}, DISCARD, FAIL). */
		DISCARD,
		/** Terminal: kept in the dead letter queue. */
		DEAD_LETTER

	}

	/**
	 * The rule of the §7.2 precedence that decided.
	 */
	public enum Rule {

		/** The handler returned {@link ErrorCode#DISCARD} (§7.2 item 1). */
		HANDLER_DISCARD,
		/** The handler returned {@link ErrorCode#FAIL} (§7.2 item 4). */
		HANDLER_FAIL,
		/** The handler returned {@link ErrorCode#DEAD_LETTER} (§7.2 item 2). */
		HANDLER_DEAD_LETTER,
		/** The error type matched {@code non_retryable_errors} (§6.3): per {@code on_exhaustion}. */
		NON_RETRYABLE,
		/** The failed attempt was the last one {@code max_attempts} allows (§2.2): per {@code on_exhaustion}. */
		EXHAUSTED,
		/** Attempts remain: retry with backoff (§7.2 item 3). */
		RETRY

	}

}

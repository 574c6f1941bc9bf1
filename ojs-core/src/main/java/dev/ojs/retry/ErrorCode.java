package dev.ojs.retry;

/**
 * Handler error response codes (spec §7.1). They take precedence over the retry policy
 * (spec §7.2, RET-08).
 */
public enum ErrorCode {

	/** Retry with the normal backoff policy; the default for a plain failure. */
	RETRY,
	/** Discard now: no retry, no dead letter. */
	DISCARD,
	/** Move to the dead letter queue now, skipping remaining retries. */
	DEAD_LETTER,
	/** Recognised permanent failure: behaves as {@link #DISCARD}, recorded distinctly. */
	FAIL

}

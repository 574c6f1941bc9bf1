package dev.ojs.job;

import java.util.Locale;

/**
 * The OJS job lifecycle states. Dead letters are {@link #DISCARDED} jobs whose
 * {@link Job#deadLetter()} flag is set.
 */
public enum JobState {

	/** Waiting for its run-at time (enqueued with a delay). */
	SCHEDULED,
	/** Staged until activated; never claimed (ojs-core §6.1). */
	PENDING,
	/** Ready to be claimed. */
	AVAILABLE,
	/** Reserved by a worker and running. */
	ACTIVE,
	/** Finished successfully. */
	COMPLETED,
	/** Failed and waiting for {@code next_retry_at} (spec §10). */
	RETRYABLE,
	/** Terminal failure: discarded, or dead-lettered when {@link Job#deadLetter()} is set. */
	DISCARDED,
	/** Cancelled before it ran. */
	CANCELLED;

	/** The lowercase name stored in the database and shown to users, e.g. {@code "retryable"}. */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static JobState fromValue(String value) {
		return valueOf(value.toUpperCase(Locale.ROOT));
	}

	public boolean isTerminal() {
		return this == COMPLETED || this == DISCARDED || this == CANCELLED;
	}

}

package dev.ojs.job;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

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

	/** The states by {@link #value()}: rows read a state per job. */
	private static final Map<String, JobState> BY_VALUE = Arrays.stream(values())
		.collect(Collectors.toUnmodifiableMap(JobState::value, Function.identity()));

	private final String value = name().toLowerCase(Locale.ROOT);

	/** The lowercase name stored in the database and shown to users, e.g. {@code "retryable"}. */
	public String value() {
		return this.value;
	}

	public static JobState fromValue(String value) {
		JobState state = BY_VALUE.get(value);
		return (state != null) ? state : valueOf(value.toUpperCase(Locale.ROOT));
	}

	public boolean isTerminal() {
		return this == COMPLETED || this == DISCARDED || this == CANCELLED;
	}

}

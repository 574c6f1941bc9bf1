package dev.ojs.spring;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The one rule for a job's options, checked by {@link OjsTemplate} (and the priority by
 * {@link OjsRecurringJobs}) for every edge: the Java API, the HTTP binding and the Admin API
 * refuse the same options with the same {@link OjsValidationException}, naming the option
 * ({@code priority}, {@code tags}, {@code pending}, {@code expires_at}). An edge only turns
 * its request into {@link JobOptions}; a value it cannot turn into one (a priority that is
 * no integer) it refuses with the same message.
 */
public final class JobOptionRules {

	/** The lowest priority. */
	public static final int MIN_PRIORITY = -100;

	/** The highest priority. */
	public static final int MAX_PRIORITY = 100;

	/** What the refusal of a priority says. */
	public static final String PRIORITY_MESSAGE = "The 'priority' must be an integer from " + MIN_PRIORITY + " to "
			+ MAX_PRIORITY + ".";

	/** What the refusal of tags says. */
	public static final String TAGS_MESSAGE = "The 'tags' field must be an array of strings.";

	/** What the refusal of a pending job with a run time says (ojs-core §6.2). */
	public static final String PENDING_MESSAGE = "A pending job cannot have a 'scheduled_at'.";

	/** What the refusal of an expiry before the run time says. */
	public static final String EXPIRES_AT_MESSAGE = "The 'expires_at' must not be before 'scheduled_at'.";

	private JobOptionRules() {
	}

	/**
	 * The priority.
	 * @param field the field that gave it, for the refusal
	 * @throws OjsValidationException when it is out of range
	 */
	public static int checkPriority(int priority, String field) {
		if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
			throw new OjsValidationException(field, PRIORITY_MESSAGE, Map.of("expected", "integer"));
		}
		return priority;
	}

	/**
	 * The tags: strings, none {@code null}.
	 * @throws OjsValidationException naming {@code tags} otherwise
	 */
	static void checkTags(List<String> tags) {
		for (Object tag : tags) {
			if (tag == null) {
				throw new OjsValidationException("tags", TAGS_MESSAGE, Map.of("expected", "string"));
			}
		}
	}

	/**
	 * The options that depend on each other: a pending job has no run time, and an expiry
	 * is not before the run time.
	 * @param runAt when the job becomes due, or {@code null}
	 * @param expiresAt when it expires, or {@code null}
	 * @throws OjsValidationException naming {@code pending} or {@code expires_at}
	 */
	static void checkTimes(JobOptions options, @Nullable Instant runAt, @Nullable Instant expiresAt) {
		if (options.pending() && runAt != null) {
			throw new OjsValidationException("pending", PENDING_MESSAGE, Map.of("expected", "false"));
		}
		if (expiresAt != null && runAt != null && expiresAt.isBefore(runAt)) {
			throw new OjsValidationException("expires_at", EXPIRES_AT_MESSAGE,
					Map.of("expected", "timestamp at or after scheduled_at"));
		}
	}

	/** Checks the options that stand alone. */
	static void check(JobOptions options) {
		if (options.priority() != null) {
			checkPriority(options.priority(), "priority");
		}
		checkTags(options.tags());
	}

}

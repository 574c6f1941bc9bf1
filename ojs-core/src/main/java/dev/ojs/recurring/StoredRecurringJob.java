package dev.ojs.recurring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * A recurring job as stored, with the fields the system maintains (ojs-cron.md §2.2).
 *
 * @param definition the registration
 * @param anchorAt when an {@code @every} recurring job's occurrences are counted from: its registration,
 * or the last change of its expression
 * @param nextRunAt the next occurrence, {@code null} while disabled (CRON-28)
 * @param lastRunAt the occurrence of the last job enqueued or skipped, or {@code null}
 * @param lastJobId the job of the last occurrence that enqueued one, or {@code null}
 * @param lastOutcome {@code triggered}, or the reason the last occurrence was skipped
 * ({@code overlap_skip}, {@code overlap_enqueue} while it waits), or {@code null}
 * @param runCount jobs enqueued so far
 * @param queuedRuns occurrences waiting for the previous job to finish (overlap {@code enqueue})
 * @param createdAt first registration
 * @param updatedAt last change of the registration
 */
public record StoredRecurringJob(RecurringJobDefinition definition, Instant anchorAt, @Nullable Instant nextRunAt,
		@Nullable Instant lastRunAt, @Nullable String lastJobId, @Nullable String lastOutcome, long runCount,
		int queuedRuns, Instant createdAt, Instant updatedAt) {

	/** Length of the jobs' {@code unique_key} column. */
	private static final int MAX_KEY_LENGTH = 255;

	public String name() {
		return this.definition.name();
	}

	/**
	 * The unique key of this recurring job's job for an occurrence: {@code cron:<name>:<local tick>}, one
	 * job per recurring job and local time. A name too long for the column is replaced by its
	 * SHA-256.
	 */
	public String uniqueKey(String localOccurrence) {
		String key = "cron:" + name() + ":" + localOccurrence;
		return (key.length() <= MAX_KEY_LENGTH) ? key : "cron:" + sha256(name()) + ":" + localOccurrence;
	}

	private static String sha256(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

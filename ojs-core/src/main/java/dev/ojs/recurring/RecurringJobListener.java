package dev.ojs.recurring;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Told of every occurrence the evaluator of this node handled (ojs-cron.md §9): a job enqueued
 * ({@code cron.triggered}, CRON-29) or none ({@code cron.skipped}, CRON-30). Called on the
 * evaluator's thread after the occurrence committed; a listener that throws is logged and ignored.
 */
public interface RecurringJobListener {

	RecurringJobListener NONE = new RecurringJobListener() {
	};

	default void triggered(Triggered event) {
	}

	default void skipped(Skipped event) {
	}

	/**
	 * {@code cron.triggered}.
	 *
	 * @param cronName the recurring job
	 * @param expression its expression
	 * @param timezone its zone
	 * @param jobId the job enqueued
	 * @param jobType its type
	 * @param runCount jobs the recurring job enqueued so far, this one included
	 * @param scheduledTime the occurrence
	 * @param actualTime when it was enqueued
	 */
	record Triggered(String cronName, String expression, String timezone, String jobId, String jobType,
			long runCount, Instant scheduledTime, Instant actualTime) {

	}

	/**
	 * {@code cron.skipped}.
	 *
	 * @param cronName the recurring job
	 * @param expression its expression
	 * @param timezone its zone
	 * @param reason {@value #OVERLAP_SKIP}, {@value #DST_SKIP} or {@value #DISABLED}
	 * @param activeJobId the unfinished previous job ({@value #OVERLAP_SKIP}), else {@code null}
	 * @param scheduledTime the occurrence (for {@value #DST_SKIP}, the nonexistent local time shifted
	 * by the gap, as {@link java.time.ZonedDateTime} places it)
	 */
	record Skipped(String cronName, String expression, String timezone, String reason, @Nullable String activeJobId,
			Instant scheduledTime) {

		/** The previous job is unfinished and the overlap policy is {@code skip}. */
		public static final String OVERLAP_SKIP = "overlap_skip";

		/** The recurring job was disabled when the occurrence was evaluated. */
		public static final String DISABLED = "disabled";

		/** The local time does not exist: DST spring-forward. */
		public static final String DST_SKIP = "dst_skip";

	}

}

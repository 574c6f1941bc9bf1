package dev.ojs.admin;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A job type whose jobs failed recently, and how many.
 *
 * @param type job type
 * @param queue queue
 * @param failed failed jobs (retrying, discarded or dead-lettered) since the window started
 * @param lastErrorType latest error type of the most recent one
 * @param lastFailedAt when the most recent one failed
 */
public record FailingType(String type, String queue, long failed, @Nullable String lastErrorType,
		@Nullable Instant lastFailedAt) {

}

package dev.ojs.admin;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Dead letters sharing their latest error type, job type and queue.
 *
 * @param errorType type of the latest error, or {@code null} when they have none
 * @param type job type
 * @param queue queue
 * @param count how many
 * @param oldestAt earliest dead-lettered time
 * @param newestAt latest dead-lettered time
 */
public record DeadLetterGroup(@Nullable String errorType, String type, String queue, long count,
		@Nullable Instant oldestAt, @Nullable Instant newestAt) {

}

package dev.ojs.job;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Summary of the dead letter queue.
 *
 * @param total number of dead letters
 * @param byQueue count per queue
 * @param byErrorType count per latest error type
 * @param oldest earliest dead-lettered time, or {@code null} when empty
 * @param newest latest dead-lettered time, or {@code null} when empty
 */
public record DeadLetterStats(long total, Map<String, Long> byQueue, Map<String, Long> byErrorType,
		@Nullable Instant oldest, @Nullable Instant newest) {

}

package dev.ojs.job;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Filter over dead letters. Every field is optional ({@code null} matches all).
 *
 * @param queue exact queue
 * @param type exact job type
 * @param errorType exact type of the latest error
 * @param from dead-lettered at or after
 * @param to dead-lettered before
 */
public record DeadLetterFilter(@Nullable String queue, @Nullable String type, @Nullable String errorType,
		@Nullable Instant from, @Nullable Instant to) {

	public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null);

}

package dev.ojs.job;

import java.time.Instant;

/**
 * Filter over dead letters. Every field is optional ({@code null} matches all).
 *
 * @param queue exact queue
 * @param type exact job type
 * @param errorType exact type of the latest error
 * @param from dead-lettered at or after
 * @param to dead-lettered before
 */
public record DeadLetterFilter(String queue, String type, String errorType, Instant from, Instant to) {

	public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null);

}

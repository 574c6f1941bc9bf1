package dev.ojs.recurring;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

/**
 * One occurrence of a recurring job.
 *
 * @param at when it is due
 * @param local its local time in the recurring job's zone ({@code 2026-03-29T02:30:00}); the UTC
 * instant for {@code @every} recurring jobs. A recurring job's jobs carry it in their unique key, so one
 * local time yields at most one job
 * @param dstSkipped local times passed over on the way to this occurrence because a DST
 * spring-forward made them nonexistent (CRON-16)
 */
public record Occurrence(Instant at, String local, List<LocalDateTime> dstSkipped) {

	public Occurrence {
		dstSkipped = List.copyOf(dstSkipped);
	}

}

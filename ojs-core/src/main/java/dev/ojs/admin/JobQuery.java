package dev.ojs.admin;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.JobState;

/**
 * A filter over jobs and the page to read (ojs-admin-api.md §7.1). Every filter is optional
 * ({@code null} matches all); jobs are ordered by id, which is creation order: ids are UUIDv7
 * made from {@code created_at}'s millisecond.
 *
 * @param state exact state
 * @param deadLetter {@code true} for dead letters only, {@code false} for no dead letters
 * @param queue exact queue
 * @param type exact job type, or its prefix when {@code typePrefix}
 * @param typePrefix whether {@code type} is a prefix
 * @param errorType exact type of the job's latest error
 * @param since created at or after
 * @param until created before
 * @param id exact job id
 * @param after the cursor of the previous page, or {@code null} for the first
 * @param limit page size
 * @param ascending oldest first when {@code true}, newest first otherwise
 */
public record JobQuery(@Nullable JobState state, @Nullable Boolean deadLetter, @Nullable String queue,
		@Nullable String type, boolean typePrefix, @Nullable String errorType, @Nullable Instant since,
		@Nullable Instant until, @Nullable String id, @Nullable PageCursor after, int limit, boolean ascending) {

	/** Every job, newest first, 20 a page. */
	public static final JobQuery ALL = new JobQuery(null, null, null, null, false, null, null, null, null, null, 20,
			false);

	public JobQuery {
		if (limit < 1) {
			throw new IllegalArgumentException("limit must be positive, got " + limit);
		}
	}

	/** Dead letters only. */
	public static JobQuery deadLetters() {
		return ALL.withState(JobState.DISCARDED, true);
	}

	public JobQuery withState(@Nullable JobState state, @Nullable Boolean deadLetter) {
		return new JobQuery(state, deadLetter, this.queue, this.type, this.typePrefix, this.errorType, this.since,
				this.until, this.id, this.after, this.limit, this.ascending);
	}

	public JobQuery withQueue(@Nullable String queue) {
		return new JobQuery(this.state, this.deadLetter, queue, this.type, this.typePrefix, this.errorType,
				this.since, this.until, this.id, this.after, this.limit, this.ascending);
	}

	public JobQuery withPage(@Nullable PageCursor after, int limit) {
		return new JobQuery(this.state, this.deadLetter, this.queue, this.type, this.typePrefix, this.errorType,
				this.since, this.until, this.id, after, limit, this.ascending);
	}

}

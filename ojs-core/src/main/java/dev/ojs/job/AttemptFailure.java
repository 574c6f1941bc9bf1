package dev.ojs.job;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.ojs.job.ErrorEntry;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

/**
 * A failed attempt to record: the job as claimed (its id, attempt and reservation owner
 * guard the write) and where it goes next.
 *
 * @param job the job as claimed; {@link Job#attempt()} is the attempt that failed and
 * {@link Job#lockedBy()} the node that held it
 * @param state {@link JobState#RETRYABLE} or {@link JobState#DISCARDED}
 * @param nextRetryAt when the retry is due (spec §10 {@code next_retry_at}); only for
 * {@code RETRYABLE}
 * @param errors the whole new error history, oldest first, the new error last
 * @param deadLetter whether a discarded job becomes a dead letter
 * @param failedAt when the failure was recorded
 */
public record AttemptFailure(Job job, JobState state, @Nullable Instant nextRetryAt, List<ErrorEntry> errors,
		boolean deadLetter, Instant failedAt) {

	public AttemptFailure {
		Objects.requireNonNull(job, "job must not be null");
		if (state != JobState.RETRYABLE && state != JobState.DISCARDED) {
			throw new IllegalArgumentException("A failed attempt is retryable or discarded, not " + state);
		}
		if ((state == JobState.RETRYABLE) != (nextRetryAt != null)) {
			throw new IllegalArgumentException("nextRetryAt is set exactly when the job is retryable");
		}
		if (deadLetter && state != JobState.DISCARDED) {
			throw new IllegalArgumentException("Only a discarded job is a dead letter");
		}
		errors = LazyErrorHistory.copyOf(errors);
		Objects.requireNonNull(failedAt, "failedAt must not be null");
	}

	/**
	 * The error of this attempt, to append to the stored history: the newest entry of
	 * {@link #errors()}, read without the rest ({@code null} when the history is empty).
	 */
	public @Nullable ErrorEntry error() {
		return LazyErrorHistory.newest(this.errors);
	}

	/** Entries of attempts before this one leave the stored history (spec §10.1 limit). */
	public int oldestAttemptKept() {
		return LazyErrorHistory.oldestAttemptKept(this.errors);
	}

	/** The stored {@code scheduled_at}: the retry time, or unchanged for a discarded job. */
	public Instant scheduledAt() {
		return (this.nextRetryAt != null) ? this.nextRetryAt : this.job.scheduledAt();
	}

	/**
	 * The stored state: {@link #state()}, but a retry already due when the failure is
	 * recorded is stored {@code available} (ojs-core.md: a retryable job becomes available
	 * once its backoff has elapsed), as a rescued attempt's often is (L1-VIS-001).
	 */
	public JobState storedState() {
		return (this.nextRetryAt != null && !this.nextRetryAt.isAfter(this.failedAt)) ? JobState.AVAILABLE
				: this.state;
	}

	/** The stored {@code discarded_at}. */
	public @Nullable Instant discardedAt() {
		return (this.state == JobState.DISCARDED) ? this.failedAt : null;
	}

}

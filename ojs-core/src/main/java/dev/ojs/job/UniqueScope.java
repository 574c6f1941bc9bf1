package dev.ojs.job;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Which live holder of a unique key counts as a duplicate (ojs-unique-jobs.md §2, spec README
 * decision 35): one created within {@code period} before the insert, in one of
 * {@code states}. A holder that does not count gives up its key in the insert's transaction
 * and the new job is inserted; uniqueness stays strong among the holders that count.
 *
 * @param period how long a holder counts from its {@code created_at}, or {@code null} for as
 * long as it is live
 * @param states the states in which a holder counts; only live states hold a key, so others
 * are refused. Empty means all of them.
 */
public record UniqueScope(@Nullable Duration period, Set<JobState> states) {

	/** The states in which a job holds its unique key. */
	public static final Set<JobState> LIVE = Set.copyOf(
			EnumSet.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.ACTIVE, JobState.RETRYABLE));

	public UniqueScope {
		if (period != null && (period.isNegative() || period.isZero())) {
			throw new IllegalArgumentException("Unique period must be positive, got " + period);
		}
		if (!LIVE.containsAll(states)) {
			throw new IllegalArgumentException("Unique states must be live states " + LIVE + ", got " + states);
		}
		states = states.isEmpty() ? LIVE : Set.copyOf(states);
	}

	/** The live states in which a holder does not count, so gives up its key. */
	public Set<JobState> releasedStates() {
		EnumSet<JobState> released = EnumSet.noneOf(JobState.class);
		released.addAll(LIVE);
		released.removeAll(this.states);
		return released;
	}

}

package dev.ojs.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.ErrorCode;
import dev.ojs.testsupport.StoredJobs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a reader sees of a stored job: its state at a moment and the retry delay before its
 * current attempt.
 */
class JobViewTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:10Z");

	@Test
	void aScheduledJobReadsAvailableOnceDue() {
		// L2-DEL-003
		Job due = StoredJobs.job("t").state(JobState.SCHEDULED).scheduledAt(NOW.minusMillis(1)).build();
		Job ahead = StoredJobs.job("t").state(JobState.SCHEDULED).scheduledAt(NOW.plusSeconds(1)).build();
		assertThat(due.stateAt(NOW)).isEqualTo(JobState.AVAILABLE);
		assertThat(due.stateAt(NOW.minusSeconds(1))).isEqualTo(JobState.SCHEDULED);
		assertThat(ahead.stateAt(NOW)).isEqualTo(JobState.SCHEDULED);
		// the job as read: only its state differs
		Job read = due.at(NOW);
		assertThat(read.state()).isEqualTo(JobState.AVAILABLE);
		assertThat(read).usingRecursiveComparison().ignoringFields("state").isEqualTo(due);
		assertThat(ahead.at(NOW)).isSameAs(ahead);
	}

	@Test
	void otherStatesReadAsStored() {
		Job retryable = StoredJobs.job("t").state(JobState.RETRYABLE).scheduledAt(NOW.minusSeconds(1)).build();
		assertThat(retryable.stateAt(NOW)).isEqualTo(JobState.RETRYABLE);
	}

	@Test
	void anAttemptAfterARetryCarriesTheDelayBeforeIt() {
		// L1-RTR-001: failed at 00:00:05, due again at 00:00:07
		ErrorEntry failure = new ErrorEntry(1, "boom", "m", ErrorCode.RETRY, NOW.minusSeconds(5), Map.of());
		Job retried = StoredJobs.job("t").state(JobState.ACTIVE).attempt(2).errors(List.of(failure))
			.scheduledAt(NOW.minusSeconds(3)).build();
		assertThat(retried.retryDelay()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aFirstAttemptOrAJobNotRunningHasNoRetryDelay() {
		assertThat(StoredJobs.job("t").state(JobState.ACTIVE).attempt(1).build().retryDelay()).isNull();
		ErrorEntry failure = new ErrorEntry(1, "boom", "m", ErrorCode.RETRY, NOW.minusSeconds(5), Map.of());
		assertThat(StoredJobs.job("t").state(JobState.RETRYABLE).attempt(1).errors(List.of(failure)).build()
			.retryDelay()).isNull();
	}

}

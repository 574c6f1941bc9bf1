package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.ojs.retry.JobError;
import dev.ojs.spring.RetryDelayCustomizer;
import dev.ojs.testsupport.StoredJobs;
import dev.ojs.worker.RetryDelayOverride;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryDelayCustomizers}.
 */
class RetryDelayCustomizersTests {

	private final JobError error = JobError.of("x.y", "m");

	@Test
	void noCustomizersMeansThePolicy() {
		assertThat(RetryDelayCustomizers.of(List.of())).isSameAs(RetryDelayOverride.NONE);
	}

	@Test
	void firstNonEmptyWinsAndSeesTypeAndAttempt() {
		RetryDelayCustomizer failing = (type, attempt, error) -> {
			throw new IllegalStateException("broken");
		};
		RetryDelayCustomizer empty = (type, attempt, error) -> Optional.empty();
		RetryDelayCustomizer byAttempt = (type, attempt, error) -> type.equals("t")
				? Optional.of(Duration.ofSeconds(attempt)) : Optional.empty();
		RetryDelayCustomizer never = (type, attempt, error) -> Optional.of(Duration.ofDays(1));
		RetryDelayOverride override = RetryDelayCustomizers.of(List.of(failing, empty, byAttempt, never));
		assertThat(override.delay(StoredJobs.job("t").attempt(2).build(), this.error)).contains(Duration.ofSeconds(2));
		assertThat(override.delay(StoredJobs.job("other").attempt(2).build(), this.error)).contains(Duration.ofDays(1));
		assertThat(RetryDelayCustomizers.of(List.of(empty)).delay(StoredJobs.job("t").build(), this.error)).isEmpty();
	}

}

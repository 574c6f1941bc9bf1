package dev.ojs.retry;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RetryPolicyLayers}: spec §8.1 precedence and where each effective field came from.
 */
class RetryPolicyLayersTest {

	@Test
	void higherLayersWinFieldByFieldAndEachFieldNamesItsLayer() {
		RetryPolicyLayers layers = RetryPolicyLayers.spec()
			.over(RetryPolicyLayers.APPLICATION, RetryPolicy.builder().maxAttempts(5).jitter(false).build())
			.over(RetryPolicyLayers.HANDLER,
					RetryPolicy.builder().maxAttempts(4).onExhaustion(OnExhaustion.DEAD_LETTER).build())
			.over(RetryPolicyLayers.JOB, RetryPolicy.builder().maxAttempts(2).build());
		RetryPolicy effective = layers.effective();
		assertThat(effective.maxAttempts()).isEqualTo(2);
		assertThat(effective.jitter()).isFalse();
		assertThat(effective.onExhaustion()).isEqualTo(OnExhaustion.DEAD_LETTER);
		assertThat(effective.initialInterval()).isEqualTo(Duration.ofSeconds(1));
		assertThat(layers.sources()).containsExactly(java.util.Map.entry("max_attempts", "job"),
				java.util.Map.entry("initial_interval", "spec"), java.util.Map.entry("backoff_coefficient", "spec"),
				java.util.Map.entry("max_interval", "spec"), java.util.Map.entry("jitter", "application"),
				java.util.Map.entry("non_retryable_errors", "spec"), java.util.Map.entry("on_exhaustion", "handler"),
				java.util.Map.entry("backoff_strategy", "spec"));
	}

	@Test
	void anEmptyListIsSetAndWins() {
		RetryPolicyLayers layers = RetryPolicyLayers.spec()
			.over(RetryPolicyLayers.APPLICATION, RetryPolicy.builder().nonRetryableErrors("java.io.*").build())
			.over(RetryPolicyLayers.HANDLER, RetryPolicy.builder().nonRetryableErrors(java.util.List.of()).build());
		assertThat(layers.effective().nonRetryableErrors()).isEmpty();
		assertThat(layers.sources()).containsEntry("non_retryable_errors", "handler");
	}

	@Test
	void addingALayerLeavesTheOriginalAlone() {
		RetryPolicyLayers base = RetryPolicyLayers.spec();
		base.over(RetryPolicyLayers.JOB, RetryPolicy.builder().maxAttempts(9).build());
		assertThat(base.effective()).isEqualTo(RetryPolicy.DEFAULT);
	}

	@Test
	void anInvalidMergeIsRejectedNamingTheField() {
		RetryPolicyLayers layers = RetryPolicyLayers.spec()
			.over(RetryPolicyLayers.HANDLER, RetryPolicy.builder().maxInterval(Duration.ofMillis(100)).build());
		assertThatExceptionOfType(RetryPolicyValidationException.class).isThrownBy(layers::effective)
			.withMessageContaining("initial_interval");
	}

}

package dev.ojs.worker;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * {@link WorkerSettings} and {@link RetentionSettings} reject values out of range.
 */
class SettingsValidationTests {

	private static final Duration SECOND = Duration.ofSeconds(1);

	@Test
	void workerSettings() {
		RetentionSettings retention = RetentionSettings.defaults();
		assertThat(new WorkerSettings(" ", Map.of("q", 1), SECOND, SECOND, Duration.ZERO, retention).nodeId()).isNull();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings("n".repeat(256), Map.of(), SECOND, SECOND, SECOND, retention))
			.withMessage("nodeId must have at most 255 characters, got 256");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of("q", 0), SECOND, SECOND, SECOND, retention))
			.withMessage("The concurrency of queue 'q' must be at least 1, got 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(" ", 1), SECOND, SECOND, SECOND, retention))
			.withMessage("Queue names must not be blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(), Duration.ZERO, SECOND, SECOND, retention))
			.withMessage("pollInterval must be a positive duration, got PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(), SECOND, null, SECOND, retention))
			.withMessage("visibilityTimeout must be a positive duration, got null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(), SECOND, SECOND, SECOND.negated(), retention))
			.withMessage("shutdownGracePeriod must not be negative, got PT-1S");
		assertThatNullPointerException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(), SECOND, SECOND, SECOND, null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WorkerSettings(null, Map.of(), SECOND, SECOND, SECOND, retention, 0, 20, dev.ojs.retry.RetryPolicy.DEFAULT))
			.withMessage("defaultConcurrency must be at least 1, got 0");
		assertThat(new WorkerSettings(null, Map.of(), SECOND, SECOND, SECOND, retention).defaultConcurrency())
			.isEqualTo(WorkerSettings.DEFAULT_QUEUE_CONCURRENCY);
	}

	@Test
	void retentionSettings() {
		assertThat(new RetentionSettings(Duration.ZERO, Duration.ZERO, SECOND, 0, Duration.ofMillis(1))).isNotNull();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetentionSettings(SECOND.negated(), SECOND, SECOND, 1, SECOND))
			.withMessage("completed must not be negative, got PT-1S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetentionSettings(SECOND, null, SECOND, 1, SECOND))
			.withMessage("discarded must not be negative, got null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetentionSettings(SECOND, SECOND, Duration.ZERO, 1, SECOND))
			.withMessage("deadLetterMaxAge must be a positive duration, got PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetentionSettings(SECOND, SECOND, SECOND, -1, SECOND))
			.withMessage("deadLetterMaxCount must not be negative, got -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetentionSettings(SECOND, SECOND, SECOND, 1, Duration.ZERO))
			.withMessage("pruneInterval must be a positive duration, got PT0S");
	}

}

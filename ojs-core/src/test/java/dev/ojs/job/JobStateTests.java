package dev.ojs.job;

import java.util.Arrays;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JobState}.
 */
class JobStateTests {

	@Test
	void valuesAreTheLowercaseNamesAndReadBack() {
		for (JobState state : JobState.values()) {
			assertThat(state.value()).isEqualTo(state.name().toLowerCase(Locale.ROOT));
			assertThat(JobState.fromValue(state.value())).isSameAs(state);
		}
		assertThat(Arrays.stream(JobState.values()).map(JobState::value)).contains("retryable", "pending");
	}

	@Test
	void namesInAnyCaseAreRead() {
		assertThat(JobState.fromValue("ACTIVE")).isSameAs(JobState.ACTIVE);
		assertThat(JobState.fromValue("Completed")).isSameAs(JobState.COMPLETED);
	}

	@Test
	void anUnknownStateIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> JobState.fromValue("running"));
	}

}
